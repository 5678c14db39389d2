import CQRencode

/// The modules of a QR code, copied out of libqrencode.
struct QRMatrix: Sendable {
    let size: Int
    let dark: [Bool]

    /// Encodes `text` as 8-bit data with error correction M (survives a scuffed badge).
    init(encoding text: String) throws(BadgeError) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { throw .qrFailed }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        dark = data.map { $0 & 1 == 1 }
    }

    func isDark(_ x: Int, _ y: Int) -> Bool { dark[y * size + x] }
}
