import RoutesSyntax

/// A problem in a program that keeps it from being generated (a name Swift cannot take, two
/// generated names that collide, a type a screen cannot store), at the place to fix.
public struct CodegenProblem: Sendable, Hashable {
    public var file: FileID
    public var range: Range<Int>
    public var message: String
    public var related: [RelatedLocation]

    public init(file: FileID, range: Range<Int>, message: String, related: [RelatedLocation] = []) {
        self.file = file
        self.range = range
        self.message = message
        self.related = related
    }
}
