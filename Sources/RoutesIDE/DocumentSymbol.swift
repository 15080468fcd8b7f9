import RoutesModel

/// A declaration in a file's outline, with the declarations inside it.
public struct DocumentSymbol: Sendable, Hashable {
    /// LSP symbol kinds used here: screen → struct, builder and root → function, dependency
    /// and optional → variable, flag → boolean.
    public enum Kind: Int, Sendable, Hashable {
        case function = 12
        case variable = 13
        case constant = 14
        case boolean = 17
        case `struct` = 23
    }
    public var name: String
    public var kind: Kind
    public var detail: String?
    /// The whole declaration.
    public var range: Range<Int>
    /// The name.
    public var selectionRange: Range<Int>
    public var children: [DocumentSymbol]

    public init(name: String, kind: Kind, detail: String? = nil, range: Range<Int>, selectionRange: Range<Int>,
                children: [DocumentSymbol] = []) {
        self.name = name
        self.kind = kind
        self.detail = detail
        self.range = range
        self.selectionRange = selectionRange
        self.children = children
    }
}

extension DocumentSymbol.Kind {
    /// The symbol kind of a declaration kind.
    init(_ kind: DeclarationKind) {
        switch kind {
        case .screen: self = .struct
        case .builder, .root: self = .function
        case .dependency, .optional: self = .variable
        case .flag: self = .boolean
        case .link: self = .constant
        }
    }
}
