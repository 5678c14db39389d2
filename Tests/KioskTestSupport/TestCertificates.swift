import Foundation

/// A private CA and a hub certificate it signed, for `127.0.0.1` and `localhost`, made with the
/// `openssl` command line (Kiosk/packages-test.txt) in a temporary directory: what an organizer
/// without a public certificate sets up (README, "TLS").
public struct TestCertificates: Sendable {
    public let directory: TemporaryDirectory
    /// The CA's certificate (PEM): the station's `--ca-file`.
    public var caFile: String { directory.appending("ca.pem").path }
    /// The hub's certificate and key (PEM): `--tls-cert` and `--tls-key`.
    public var certificateFile: String { directory.appending("hub.pem").path }
    public var keyFile: String { directory.appending("hub.key").path }

    public init() throws {
        directory = TemporaryDirectory("tls")
        let dir = directory.url.path
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", "\(dir)/ca.key", "-out", "\(dir)/ca.pem", "-days", "2", "-subj", "/CN=Check-in Test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", "\(dir)/hub.key", "-out", "\(dir)/hub.csr", "-subj", "/CN=localhost"])
        try """
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.write(toFile: "\(dir)/hub.ext", atomically: true, encoding: .utf8)
        try Self.openssl(["x509", "-req", "-in", "\(dir)/hub.csr", "-CA", "\(dir)/ca.pem", "-CAkey", "\(dir)/ca.key",
                          "-CAcreateserial", "-out", "\(dir)/hub.pem", "-days", "2", "-extfile", "\(dir)/hub.ext"])
    }

    static func openssl(_ arguments: [String]) throws {
        let result = try run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments, timeout: 60)
        guard result.status == 0 else { throw HubFailure("openssl \(arguments.first ?? ""): \(result.stderr)") }
    }

    public func remove() { directory.remove() }
}
