import Foundation
import KioskTestSupport

extension TmuxConsole {
    /// On the sign-in screen: the hub's address, Tab, the staff e-mail, Enter, then `password`
    /// and Enter.
    func signIn(to hub: RealHub, password: String) throws {
        try type(hub.url)
        try send("Tab")
        try type(hub.email)
        try send("Enter")
        try type(password)
        try send("Enter")
    }
}
