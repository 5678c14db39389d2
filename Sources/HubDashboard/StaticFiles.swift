import HTTPTypes
import HubServer
import Hummingbird
import NIOCore

/// `GET /static/{name}`: the dashboard's CSS and JavaScript, from the binary (``WebAssets``).
struct StaticFiles {
    let site: WebSite

    func add(to group: RouterGroup<HubRequestContext>) {
        group.get("/static/:name", use: { _, context in
            guard let name = context.parameters.get("name"), let file = WebAssets.staticFiles[name] else {
                return WebResponse.problem(.notFound, "Not found", "There is no such file.")
            }
            var headers = WebResponse.pageHeaders(contentType: file.contentType)
            // Small files, changed only by a new hub: a browser may keep them a few minutes.
            headers[.cacheControl] = "public, max-age=300"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: file.text)))
        })
    }
}
