import RoutesJSON

/// The answer to one request, given exactly once: a second answer is dropped (and logged); a
/// request left unanswered is answered with -32603 when its guard goes away (as clangd does).
final class Reply {
    let id: JSONValue
    let method: String
    private let output: MessageWriter
    private var answered = false

    init(id: JSONValue, method: String, output: MessageWriter) {
        self.id = id
        self.method = method
        self.output = output
    }

    func callAsFunction(_ result: Result<JSONValue, ResponseError>) {
        guard !answered else {
            Log.error("\(method) (id \(id)) was answered twice; the second answer is dropped")
            return
        }
        answered = true
        if case .failure(let error) = result {
            Log.debug("\(method) (id \(id)) failed: \(error)")
        }
        output.send(Server.response(id: id, result))
    }

    deinit {
        if !answered {
            Log.error("\(method) (id \(id)) was not answered; answering -32603")
            output.send(Server.response(id: id, .failure(.internalError("\(method) was not answered"))))
        }
    }
}
