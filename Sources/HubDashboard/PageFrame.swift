import HubAPI
import HubServer
import Hummingbird

/// What the `top` template reads on every signed-in page: the page's title, who is signed in
/// with the sign-out form, and the page's own script if it has one.
///
/// A page's model holds it as `frame`; its template opens with `{{#frame}}{{> top}}{{/frame}}`.
/// A page's forms are ``PostForm`` values of its model, each with the token of its own action.
struct PageFrame {
    var title: String
    var staffName: String
    var signOut: PostForm
    var script: String?

    init(_ title: String, for caller: AuthenticatedSession, _ request: Request, script: String? = nil) {
        self.title = title
        staffName = caller.staff.name
        signOut = FormTokens(request, caller).form(WebRoutes.signOut)
        self.script = script
    }
}
