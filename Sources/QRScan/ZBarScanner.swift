import CZBar

/// Which symbologies the decoder looks for. QR only by default: every extra symbology runs its
/// 1-D decoders on every scan line, which costs time and adds false positives.
public struct Symbologies: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let qr = Symbologies(rawValue: 1)
    /// Code 128, which many ticket systems print next to (or instead of) a QR code.
    public static let code128 = Symbologies(rawValue: 2)
}

/// A code as zbar reported it: raw payload bytes, never interpreted as text here.
struct RawSymbol: Sendable, Equatable {
    var bytes: [UInt8]
    var isQR: Bool
    /// Bounding box of the reported corner points, in the coordinates of the scanned image.
    var bounds: PixelRect?
}

/// An axis-aligned rectangle in pixels.
public struct PixelRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One libzbar image scanner.
///
/// zbar scanners are not thread-safe, so this is neither `Sendable` nor shared: each decoding
/// thread owns its own (see ``QRDecoder``), and creating one is cheap.
final class ZBarScanner {
    private let scanner: OpaquePointer

    init(symbologies: Symbologies = .qr, density: Int = 1) {
        currentDensity = density
        scanner = zbar_image_scanner_create()
        // Everything off, then only what is asked for.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        if symbologies.contains(.qr) {
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
            // Bytes as they are in the code: zbar's own charset guessing turns UTF-8 payloads
            // without ECI into Shift-JIS text (22 misreads on the public corpus).
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        }
        if symbologies.contains(.code128) {
            zbar_image_scanner_set_config(scanner, ZBAR_CODE128, ZBAR_CFG_ENABLE, 1)
        }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_POSITION, 1)
    }

    /// A scanner with libzbar's own defaults (every symbology, text conversion on): what
    /// `zbarimg` does, for baselines.
    init(zbarDefaults: Void) {
        scanner = zbar_image_scanner_create()
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 1)
    }

    /// One plain libzbar pass with only QR enabled, everything else at zbar's defaults (no
    /// inverted retry, zbar's own text conversion): the cost baseline the decoder must beat.
    init(plainQR: Void) {
        scanner = zbar_image_scanner_create()
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// Turns zbar's "test inverted" retry on or off (dark-mode screens: light modules on dark).
    func setTestInverted(_ on: Bool) {
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, on ? 1 : 0)
    }

    /// Scan every `density`-th line and column (1 = all).
    func setDensity(_ density: Int) {
        guard density != currentDensity else { return }
        currentDensity = density
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
    }
    private var currentDensity = 1

    /// Scans one frame; returns every symbol found, payload bytes copied out.
    func scan(_ frame: GrayFrame) -> [RawSymbol] {
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, czbar_fourcc(y, eight, zero, zero))
        zbar_image_set_size(image, UInt32(frame.width), UInt32(frame.height))
        return frame.pixels.withUnsafeBufferPointer { pixels -> [RawSymbol] in
            // No cleanup handler: Swift owns the pixels, and they outlive the scan.
            zbar_image_set_data(image, pixels.baseAddress, UInt(pixels.count), nil)
            guard zbar_scan_image(scanner, image) > 0 else { return [] }
            var found: [RawSymbol] = []
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                let length = Int(zbar_symbol_get_data_length(current))
                var bytes: [UInt8] = []
                if length > 0, let data = zbar_symbol_get_data(current) {
                    bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                }
                found.append(RawSymbol(bytes: bytes, isQR: zbar_symbol_get_type(current) == ZBAR_QRCODE,
                                       bounds: Self.bounds(of: current)))
                symbol = zbar_symbol_next(current)
            }
            // Drop the data pointer before Swift's buffer goes away.
            zbar_image_set_data(image, nil, 0, nil)
            return found
        }
    }

    private static func bounds(of symbol: OpaquePointer) -> PixelRect? {
        let count = zbar_symbol_get_loc_size(symbol)
        guard count > 0 else { return nil }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for i in 0..<count {
            let x = Int(zbar_symbol_get_loc_x(symbol, i)), y = Int(zbar_symbol_get_loc_y(symbol, i))
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    private let y = CChar(UInt8(ascii: "Y")), eight = CChar(UInt8(ascii: "8")), zero = CChar(UInt8(ascii: "0"))
}
