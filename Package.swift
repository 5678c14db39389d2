// swift-tools-version: 6.2
import PackageDescription

// One package, two programs: `kiosk` (the station) and `checkin-hub` (the server).
// Each area below keeps its targets together so it can grow without touching the others.

var targets: [Target] = []
var products: [Product] = [
    .executable(name: "kiosk", targets: ["kiosk"]),
]
// What the `kiosk` executable links: each area appends its modules in its own block.
var kioskDependencies: [Target.Dependency] = [
    "CheckInCore",
    "KioskStore",
    "RosterCSV",
    .product(name: "ArgumentParser", package: "swift-argument-parser"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "GRDB", package: "GRDB.swift"),
]
// Swift packages come from the local mirror; an area appends what it needs in its own block.
// Every version is `exact:`: a release build (Kiosk/build-deb.sh) is made of these and no
// other, and each package ships the resolved list of all of them, direct or not.
var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
    // Roster `.xlsx` files are ZIP archives: ZIPFoundation reads them (through zlib: Debian's zlib1g-dev).
    .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    // Property-based tests (Swift Testing generators and shrinking) for the overflow-safe time rules.
    .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
]

// MARK: - Foundation: domain, station store, command line

targets += [
    .target(name: "CheckInCore"),
    // Roster files (CSV, and `.xlsx` through ZIPFoundation and XMLParser) shared by `kiosk import` and `checkin-hub import`.
    .target(
        name: "RosterCSV",
        dependencies: ["CheckInCore", .product(name: "CSV", package: "CSV.swift"), .product(name: "ZIPFoundation", package: "ZIPFoundation")]
    ),
    .target(
        name: "KioskStore",
        dependencies: [
            "CheckInCore",
            "RosterCSV",
            // One migration file type and plan for the station and the hub (Sources/SchemaMigrations).
            "SchemaMigrations",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            // Guest data sealed at rest (AES-GCM, HKDF, HMAC): Sources/KioskStore/Encryption.
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        plugins: ["EmbedMigrationsPlugin"]
    ),
    // Migrations ship inside the binaries: see Sources/EmbedMigrationsPlugin.
    .executableTarget(name: "embed-migrations"),
    .plugin(
        name: "EmbedMigrationsPlugin",
        capability: .buildTool(),
        dependencies: ["embed-migrations"],
        path: "Sources/EmbedMigrationsPlugin"
    ),
    .testTarget(
        name: "CheckInCoreTests",
        dependencies: ["CheckInCore", .product(name: "PropertyBased", package: "swift-property-based")]
    ),
    .testTarget(name: "RosterCSVTests", dependencies: ["RosterCSV", "CheckInCore", "KioskTestSupport"]),
    .testTarget(
        name: "KioskStoreTests",
        dependencies: ["KioskStore", "KioskTestSupport", "RosterCSV", "CheckInCore", .product(name: "GRDB", package: "GRDB.swift")],
        exclude: ["Fixtures"]  // read from the package folder, see StoreFixtures
    ),
    .testTarget(name: "KioskCommandTests", dependencies: ["KioskStore", "KioskTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    // Helpers every test target may use: temporary directories, running the built executables,
    // writing .xlsx rosters (ZIPFoundation).
    .target(name: "KioskTestSupport", dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")], path: "Tests/KioskTestSupport"),
]

// MARK: - Shared C libraries

targets += [
    // No pkgConfig: the module map's `link` line is enough, and a missing .pc would only warn.
    .systemLibrary(name: "CQRencode", providers: [.apt(["libqrencode-dev"])]),
]

// MARK: - QR decoding: libzbar, frame sources, debouncing (issue 3)

targets += [
    // libzbar: the QR decoder and its V4L2 video capture.
    .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
    // TurboJPEG: MJPEG camera frames and JPEG stills to grayscale.
    .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
    // Frame sources, the decoder cascade, debouncing: Swift values only above the C shims.
    .target(
        name: "QRScan",
        dependencies: ["CZBar", "CTurboJPEG", "CheckInCore", .product(name: "Logging", package: "swift-log")]
    ),
    .testTarget(
        name: "QRScanTests",
        dependencies: ["QRScan", "CQRencode", "CheckInCore", "KioskTestSupport"],
        exclude: ["Fixtures"]
    ),
]
dependencies += [
]
kioskDependencies += [
    "QRScan",
]

// MARK: - Badge printing: cairo/pango rendering, CUPS, print spooler (issue 4)

targets += [
    // pkgConfig for pango's glib/harfbuzz include paths (SwiftPM warns about glib's -pthread; harmless).
    .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
    // Debian's libcups2-dev ships no cups.pc: the module map links `cups`.
    .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
    // Badge templates (JSON an organizer can edit) and PDF/PNG rendering.
    .target(name: "BadgePrint", dependencies: ["CheckInCore", "CPangoCairo", "CQRencode"]),
    // CUPS submission and job/printer truth; print jobs are rows in the station database.
    .target(
        name: "PrintSpooler",
        dependencies: [
            "CheckInCore", "KioskStore", "BadgePrint", "CCups",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]
    ),
    .testTarget(
        name: "BadgePrintTests",
        dependencies: ["BadgePrint", "PrintSpooler", "KioskStore", "CheckInCore", "KioskTestSupport", "PrintTestSupport",
                       .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // A private cupsd and a scripted printer, for the print queue's tests and the station's.
    .target(name: "PrintTestSupport", dependencies: ["PrintSpooler", "KioskTestSupport"], path: "Tests/PrintTestSupport"),
]
dependencies += [
]
kioskDependencies += [
    "BadgePrint",
    "PrintSpooler",
]

// MARK: - Hub: checkin-hub server, SQLite and PostgreSQL storage (issue 5)

products += [
    .executable(name: "checkin-hub", targets: ["checkin-hub"]),
]
targets += [
    // The `/v1` wire contract shared by the hub and the station's sync client: Codable types only.
    .target(name: "HubAPI", dependencies: ["CheckInCore"], exclude: ["openapi.yaml"]),
    // The hub's decisions as values, no I/O (like the station's CheckInRules): ingest, walk-ins,
    // undo, merge, roster paging, route access, refresh rotation, station claims.
    .target(name: "HubCore", dependencies: ["CheckInCore", "HubAPI"]),
    // `NNNN_name.sql` migrations and the plan of which to apply: for the hub's databases and the station's.
    .target(name: "SchemaMigrations", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
    // The hub's repositories, their records, and every store operation written once over SQL.
    .target(name: "HubStorage", dependencies: ["CheckInCore", "HubAPI", "HubCore", "RosterCSV", "SchemaMigrations"]),
    // Only what SQLite and PostgreSQL really do differently: transactions, locks, lists, notices.
    .target(
        name: "HubStorageSQLite",
        dependencies: ["HubStorage", "SchemaMigrations", .product(name: "GRDB", package: "GRDB.swift")],
        plugins: ["EmbedMigrationsPlugin"]
    ),
    .target(
        name: "HubStoragePostgres",
        dependencies: [
            "HubStorage", "SchemaMigrations",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ],
        plugins: ["EmbedMigrationsPlugin"]
    ),
    .target(
        name: "HubServer",
        dependencies: [
            "HubAPI",
            "CheckInCore",
            "RosterCSV",
            "HubCore",
            "HubStorage",
            "HubStorageSQLite",
            "HubStoragePostgres",
            "SchemaMigrations",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            // The request and response parts a connection handler sees (HeaderTimeoutHandler).
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            // `checkin-hub serve --tls-cert --tls-key`: HTTPS through NIOSSL.
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]
    ),
    // The organizers' dashboard: server-rendered pages over the hub's repositories, beside its API.
    .target(
        name: "HubDashboard",
        dependencies: [
            "HubServer",
            "HubAPI",
            "HubCore",
            "HubStorage",
            "CheckInCore",
            "RosterCSV",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Mustache", package: "swift-mustache"),
        ],
        // Templates, CSS and JavaScript are embedded by EmbedWebAssetsPlugin, not compiled or copied.
        exclude: ["Assets"],
        plugins: ["EmbedWebAssetsPlugin"]
    ),
    // The hub as `checkin-hub serve` runs it: the store opened and migrated, then the API and the
    // dashboard on one address, with the store and the change feed as services of its group.
    .target(
        name: "CheckInHub",
        dependencies: [
            "HubServer",
            "HubDashboard",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]
    ),
    // The dashboard's templates and static files ship inside the hub: see Sources/EmbedWebAssetsPlugin.
    .executableTarget(name: "embed-web-assets"),
    .plugin(
        name: "EmbedWebAssetsPlugin",
        capability: .buildTool(),
        dependencies: ["embed-web-assets"],
        path: "Sources/EmbedWebAssetsPlugin"
    ),
    .executableTarget(
        name: "checkin-hub",
        dependencies: [
            "CheckInHub",
            "HubServer",
            "HubAPI",
            "CheckInCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    .testTarget(name: "HubAPITests", dependencies: ["HubAPI", "CheckInCore"]),
    .testTarget(name: "HubCoreTests", dependencies: ["HubCore", "HubAPI", "CheckInCore"]),
    .testTarget(
        name: "HubServerTests",
        dependencies: [
            "HubServer", "HubDashboard", "CheckInHub", "HubAPI", "CheckInCore", "KioskTestSupport",
            "HubCore", "HubStorage", "HubStorageSQLite", "HubStoragePostgres", "SchemaMigrations",
            // ReviewBrowserTests adds a walk-in at a real station through its own store (the console's path).
            "KioskStore",
            .product(name: "Logging", package: "swift-log"),
            // In-process router tests (`app.test(.router)`): every route × role × event.
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "PropertyBased", package: "swift-property-based"),
            .product(name: "GRDB", package: "GRDB.swift"),
            // WebTemplatesTests pins how the template library's escaping reaches sections and partials.
            .product(name: "Mustache", package: "swift-mustache"),
        ],
        // The dashboard's Playwright script, run by DashboardBrowserTests; a release's databases, read from the folder.
        exclude: ["Browser", "Fixtures"]
    ),
]
dependencies += [
    // `traits: []`: no swift-configuration, no full-Foundation extras; keeps the build lean.
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
    // Already pulled in by postgres-nio; named here because HubServer imports Crypto directly.
    .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    // NIOSSL: already pulled in by postgres-nio; named because the hub (and the station) import it.
    .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    // Server-rendered dashboard templates; no front-end build step.
    .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
]
kioskDependencies += [
]

// MARK: - Station sync: sign-in, roster download, outbox push (issue 6)

targets += [
    // The hub client and the SyncEngine actor. The client is AsyncHTTPClient rather than URLSession:
    // on Linux URLSession cannot take per-session trust roots, and a station must trust a private CA.
    .target(
        name: "RosterSync",
        dependencies: [
            "CheckInCore",
            "KioskStore",
            "HubAPI",
            "HTTPTransport",
            "SyncSchedule",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]
    ),
    .testTarget(
        name: "RosterSyncTests",
        dependencies: [
            "RosterSync",
            "HTTPTransport",
            "HubAPI",
            "KioskStore",
            "CheckInCore",
            "KioskTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
]
dependencies += [
    // AsyncHTTPClient: on top of what the hub already builds (NIO, NIOSSL), it adds NIOHTTP2,
    // nio-extras (compression, SOCKS) and swift-algorithms.
    .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
]
kioskDependencies += [
    "RosterSync",
    "HTTPTransport",
    "HubAPI",
]

// MARK: - Roster sources: shared HTTP transport, sync schedule; pretix as a source (issue 31)

targets += [
    // Bounded answers, TLS trust, transport failures in the operator's words and the process's one
    // HTTP client: what every HTTP client of the station shares (the hub's in RosterSync, pretix's).
    .target(
        name: "HTTPTransport",
        dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]
    ),
    // When a station pulls its roster source and pushes its outbox, as a pure value (no I/O).
    .target(name: "SyncSchedule"),
    // The station as a pretix device: handshake, device API, catalog and order downloads with
    // deltas, online redeem and annul, queued uploads; pretix's data as CheckInCore values.
    .target(
        name: "PretixClient",
        dependencies: [
            "CheckInCore",
            "HTTPTransport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]
    ),
    .testTarget(
        name: "HTTPTransportTests",
        dependencies: [
            "HTTPTransport",
            "KioskTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]
    ),
    .testTarget(name: "SyncScheduleTests", dependencies: ["SyncSchedule"]),
    .testTarget(name: "PretixClientTests", dependencies: ["PretixClient", "HTTPTransport", "CheckInCore", "KioskTestSupport"]),
    // Tickets that carry their own proof (pretix's `pretix_sig1`, Ed25519), verified offline: a
    // pure reader and verifier, whatever sold the ticket.
    .target(name: "SignedTickets", dependencies: ["CheckInCore", .product(name: "Crypto", package: "swift-crypto")]),
    .testTarget(name: "SignedTicketsTests", dependencies: ["SignedTickets", "CheckInCore", .product(name: "Crypto", package: "swift-crypto")]),
    // The station's roster from a pretix check-in list and its check-ins back into pretix.
    .target(
        name: "PretixSync",
        dependencies: ["CheckInCore", "KioskStore", "PretixClient", "SignedTickets", "SyncSchedule", .product(name: "Logging", package: "swift-log")]
    ),
    .testTarget(name: "PretixSyncTests", dependencies: ["PretixSync", "PretixClient", "KioskStore", "CheckInCore"]),
]

// MARK: - Station: kiosk run, operator console, kiosk set-up (issue 7)

targets += [
    // ncurses, wide-character API; see Sources/CNcursesw/shim.h for the macro and global wrappers.
    .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
    // Screens, keys and text fitting as values; one file (CursesTerminal) talks to ncurses.
    .target(name: "OperatorConsole", dependencies: ["CheckInCore", "CNcursesw"]),
    // evdev/uinput ioctls (macros Swift cannot import): the dedicated scanner's grab, the tests' virtual keyboard.
    .systemLibrary(name: "CEvdev", providers: [.apt(["linux-libc-dev"])]),
    // The composition root of `kiosk run`: start-up, the check-in flow, services, shutdown.
    .target(
        name: "Station",
        dependencies: [
            "CheckInCore", "KioskStore", "RosterCSV", "OperatorConsole", "QRScan", "PrintSpooler", "BadgePrint", "RosterSync", "HTTPTransport",
            "PretixSync", "PretixClient", "SignedTickets", "SyncSchedule", "CEvdev",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]
    ),
    .testTarget(name: "OperatorConsoleTests", dependencies: ["OperatorConsole", "CheckInCore"]),
    .testTarget(name: "StationTests", dependencies: ["Station", "OperatorConsole", "KioskStore", "CheckInCore", "KioskTestSupport", "PrintTestSupport",
                                                    "PrintSpooler", "RosterSync", "PretixClient", "PretixSync", "CQRencode", "CEvdev", .product(name: "GRDB", package: "GRDB.swift")]),
]
dependencies += [
]
kioskDependencies += [
    "Station",
    "OperatorConsole",
    "PretixSync",
    "PretixClient",
]

// MARK: - The station executable

targets += [
    .executableTarget(name: "kiosk", dependencies: kioskDependencies),
]

let package = Package(
    name: "checkin-kiosk",
    products: products,
    dependencies: dependencies,
    targets: targets
)

for target in package.targets where [.regular, .test, .executable].contains(target.type) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
