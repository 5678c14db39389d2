import HubAPI
import Hummingbird

/// What the `top` template reads on every signed-in page: the page's title, who is signed in
/// with the sign-out form's token, and the page's own script if it has one.
///
/// A page's model holds it as `frame`; its template opens with `{{#frame}}{{> top}}{{/frame}}`
/// and its forms carry `{{frame.csrf}}`.
struct PageFrame {
    var title: String
    var staffName: String
    var csrf: String
    var script: String?

    init(_ title: String, for caller: AuthenticatedSession, _ request: Request, script: String? = nil) {
        self.title = title
        staffName = caller.staff.name
        csrf = WebSession.csrf(request, caller)
        self.script = script
    }
}
