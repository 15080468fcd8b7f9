import RoutesJSON

/// A JSON-RPC error response: what a request handler throws to answer with an error.
///
/// Handlers throw ``invalidParams(_:data:)`` for params they cannot use; the server itself
/// produces the lifecycle and protocol errors.
public struct ResponseError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The `error` member of a response: `{"code", "message", "data"?}`.
    public var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    // MARK: JSON-RPC 2.0

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603

    // MARK: LSP 3.17

    public static let serverNotInitializedCode = -32002
    public static let unknownErrorCode = -32001
    public static let requestFailedCode = -32803
    public static let serverCancelledCode = -32802
    public static let contentModifiedCode = -32801
    public static let requestCancelledCode = -32800

    /// -32700: the message is not JSON.
    public static func parseError(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: parseErrorCode, message: message, data: data)
    }

    /// -32600: JSON, but not a valid JSON-RPC message, or a request the lifecycle forbids.
    public static func invalidRequest(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: invalidRequestCode, message: message, data: data)
    }

    /// -32601: no handler for the method.
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: methodNotFoundCode, message: "method not found: \(method)")
    }

    /// -32602: the params are missing, of the wrong shape, or refer to something unusable.
    public static func invalidParams(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: invalidParamsCode, message: message, data: data)
    }

    /// -32603: the server failed to answer.
    public static func internalError(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: internalErrorCode, message: message, data: data)
    }

    /// -32002: a request before `initialize`.
    public static func serverNotInitialized(_ message: String = "the server is not initialized") -> ResponseError {
        ResponseError(code: serverNotInitializedCode, message: message)
    }

    /// -32800: the client cancelled the request before it was answered.
    public static func requestCancelled(_ message: String = "the request was cancelled") -> ResponseError {
        ResponseError(code: requestCancelledCode, message: message)
    }

    /// -32801: the document changed while the request was being computed.
    public static func contentModified(_ message: String = "the content was modified") -> ResponseError {
        ResponseError(code: contentModifiedCode, message: message)
    }

    /// -32803: the request is valid but could not be carried out (LSP 3.17).
    public static func requestFailed(_ message: String, data: JSONValue? = nil) -> ResponseError {
        ResponseError(code: requestFailedCode, message: message, data: data)
    }
}

extension ResponseError {
    /// Runs `body`, passing a ``ResponseError`` through and turning any other error into
    /// -32603, for handlers that call APIs throwing other errors.
    public static func catching<T>(_ body: () throws -> T) throws(ResponseError) -> T {
        do {
            return try body()
        } catch let error as ResponseError {
            throw error
        } catch {
            throw .internalError("\(error)")
        }
    }
}

extension ResponseError: CustomStringConvertible {
    public var description: String { "\(message) (\(code))" }
}
