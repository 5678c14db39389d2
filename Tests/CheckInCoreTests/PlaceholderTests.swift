import Testing
@testable import CheckInCore

@Test func placeholder() { #expect(Bool(true)) }
