/// A plane-to-plane perspective map (3x3 matrix, last entry 1): how a flat code's module
/// coordinates land in a camera frame.
struct Homography: Sendable, Equatable {
    /// Row-major h11 ... h32; h33 = 1.
    private var h: [Double]

    /// The map taking each of four `from` points to the matching `to` point; `nil` when three
    /// of them are on one line.
    init?(from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) {
        guard from.count == 4, to.count == 4 else { return nil }
        // Two equations per correspondence: x' (h31 x + h32 y + 1) = h11 x + h12 y + h13, same
        // for y'; eight unknowns.
        var a = [[Double]]()
        for (p, q) in zip(from, to) {
            a.append([p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y, q.x])
            a.append([0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y, q.y])
        }
        guard let solution = Self.solve(&a) else { return nil }
        h = solution
    }

    /// The affine map taking module coordinates `(column, row)` of `origin`, `origin + (1, 0)`
    /// and `origin + (0, 1)` to `o`, `o + u` and `o + v`.
    init(affineFrom origin: (x: Double, y: Double), to o: (x: Double, y: Double),
         u: (x: Double, y: Double), v: (x: Double, y: Double)) {
        h = [u.x, v.x, o.x - u.x * origin.x - v.x * origin.y,
             u.y, v.y, o.y - u.y * origin.x - v.y * origin.y,
             0, 0]
    }

    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let w = h[6] * x + h[7] * y + 1
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
    }

    /// Gaussian elimination with partial pivoting on an 8x9 augmented matrix.
    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = 8
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            guard abs(a[pivot][column]) > 1e-9 else { return nil }
            a.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                guard factor != 0 else { continue }
                for k in column...n { a[row][k] -= factor * a[column][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
