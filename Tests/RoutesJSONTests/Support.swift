import RoutesJSON

/// The error `JSON.parse` throws for `text`, or `nil` if it parses.
func parseError(_ text: String) -> JSONError? {
    do {
        _ = try JSON.parse(text)
        return nil
    } catch {
        return error
    }
}

/// The error `JSON.parse(bytes:)` throws for `bytes`, or `nil` if they parse.
func parseError(bytes: [UInt8]) -> JSONError? {
    do {
        _ = try JSON.parse(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

/// `[[[ … ]]]` nested `depth` levels deep.
func nestedArrays(depth: Int) -> String {
    String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

/// `{"k":{"k":…{}}}` nested `depth` levels deep.
func nestedObjects(depth: Int) -> String {
    String(repeating: "{\"k\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
}
