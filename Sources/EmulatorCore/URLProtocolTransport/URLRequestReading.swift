import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServiceRequest {
    /// A URLRequest as a URLProtocol (or `Emulator.handle`) receives it. `task`: the task that sent it, when a
    /// URLProtocol serves it; an upload task's body is taken from there.
    init(_ request: URLRequest, task: URLSessionTask? = nil) {
        var body = Self.body(of: request)
        var hidden = false
        if body == nil {
            switch UploadTaskBody.find(in: task) {
            case .recovered(let data): body = data
            case .hidden: hidden = true
            case .notAnUploadTask: break
            }
        }
        self.init(method: request.httpMethod ?? "GET", url: request.url ?? URL(string: "about:blank")!,
                  headers: request.allHTTPHeaderFields ?? [:], body: body, uploadBodyHidden: hidden)
        fromDownloadTask = task is URLSessionDownloadTask
    }

    /// Linux keeps `httpBody`; Darwin moves the body into `httpBodyStream` before a URLProtocol sees it.
    private static func body(of request: URLRequest) -> Data? {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
