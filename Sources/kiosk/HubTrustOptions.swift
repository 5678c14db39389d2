import ArgumentParser
import HTTPTransport

/// How a station command reaches its hub: the private CA to trust, and whether plain HTTP to
/// another machine is allowed (kiosk.conf's `ca_file` and `allow_insecure_http` for `kiosk run`).
struct HubTrustOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: "PEM certificate of the private CA that signed the hub's certificate (default: the system's trust store).")
    var caFile: String?

    @Flag(name: .customLong("allow-insecure-http"), help: "Allow plain http:// to a hub on another machine (a trusted network only; loopback is always allowed).")
    var allowInsecureHTTP = false

    var policy: TransportPolicy {
        TransportPolicy(caFile: caFile, allowInsecureHTTP: allowInsecureHTTP)
    }
}
