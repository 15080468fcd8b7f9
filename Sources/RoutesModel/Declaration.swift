import RoutesSyntax

/// How a screen is presented (docs/language.md#presentations). The raw values are the
/// JSON previews' `presentation` strings.
public enum Presentation: String, Sendable, Hashable, CaseIterable {
    case push
    case sheet
    /// `sheet(allowsPush: false)`: modal, and nothing can be pushed on it.
    case sheetNoPush
    /// `cover`: full screen (SwiftUI's `fullScreenCover`), with its own stack.
    case cover
    /// `cover(allowsPush: false)`.
    case coverNoPush
    /// `popover`: a popover (a sheet on compact widths), with its own stack.
    case popover
    /// `popover(allowsPush: false)`.
    case popoverNoPush

    /// The modal styles: every rule treats a cover or a popover as a sheet with the same
    /// `allowsPush`; only the words and the generated code tell them apart.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        case sheet, cover, popover
    }

    /// The modal style, nil for `push`.
    public var style: Style? {
        switch self {
        case .push: return nil
        case .sheet, .sheetNoPush: return .sheet
        case .cover, .coverNoPush: return .cover
        case .popover, .popoverNoPush: return .popover
        }
    }

    /// Whether screens can be pushed on it (for `push`: on the stack it joins).
    public var allowsPush: Bool {
        switch self {
        case .sheetNoPush, .coverNoPush, .popoverNoPush: return false
        default: return true
        }
    }

    /// A modal style and whether it allows pushes.
    public init(style: Style, allowsPush: Bool) {
        switch style {
        case .sheet: self = allowsPush ? .sheet : .sheetNoPush
        case .cover: self = allowsPush ? .cover : .coverNoPush
        case .popover: self = allowsPush ? .popover : .popoverNoPush
        }
    }

    /// How the presentation is written: `push`, `sheet`, `cover(allowsPush: false)`.
    public var sourceText: String {
        guard let style else { return "push" }
        return allowsPush ? style.rawValue : "\(style.rawValue)(allowsPush: false)"
    }

    /// How previews write it: `push`, `sheet`, `cover, no push`.
    public var previewText: String {
        guard let style else { return "push" }
        return allowsPush ? style.rawValue : "\(style.rawValue), no push"
    }

    /// How messages name it: `a sheet`, `a cover`, `a popover`, `a push`.
    public var nounWithArticle: String {
        "a \(style?.rawValue ?? "push")"
    }
}

/// What a declaration declares. All kinds share one namespace.
public enum DeclarationKind: String, Sendable, Hashable, CaseIterable {
    case screen
    case dependency
    case optional
    case flag
    case builder
    case root
    /// A deep link (`link item "/items/{id}" -> Home/Detail(id: id)`).
    case link

    /// The word used in messages ("a screen", "an optional").
    public var withArticle: String {
        switch self {
        case .optional: return "an optional"
        default: return "a \(rawValue)"
        }
    }
}

/// A screen parameter: `label: Type`.
public struct Parameter: Sendable, Hashable {
    public var label: Name
    public var type: String
}

/// One top-level declaration. Fields that do not apply to a kind stay empty.
public struct Declaration: Sendable {
    /// The declared name; for `root`, the keyword.
    public var name: Name
    /// Screens: parameters in order (none in a model that leaves them out, see
    /// `hasParameters`).
    public var parameters: [Parameter] = []
    /// What few declarations have (a doc comment, a type, `from`), out of line: nil when the
    /// declaration has none of them.
    private var details: Details?
    private var extent: Range32
    private var body32: Int32 = -1
    public var kind: DeclarationKind
    /// Screens: how the screen is presented.
    public var presentation: Presentation = .push
    /// Whether the lowering left out parameters the screen has (`Lowering.lower`).
    public internal(set) var parametersLeftOut = false
    /// Whether the screen has parameters, also in a model that left them out.
    public var hasParameters: Bool { !parameters.isEmpty || parametersLeftOut }

    /// The whole declaration.
    public var range: Range<Int> {
        get { extent.range }
        set { extent = Range32(newValue) }
    }
    /// Builders and `root`: the body (`nil` when a syntax error left none).
    public var body: NodeID? {
        get { body32 < 0 ? nil : Int(body32) }
        set { body32 = newValue.map { Int32($0) } ?? -1 }
    }
    /// The `///` doc comment before it, without the slashes.
    public var doc: String? {
        get { details?.doc }
        set { if newValue != nil || details != nil { writableDetails().doc = newValue } }
    }
    /// Dependencies and optionals: the Swift type as written.
    public var type: String? {
        get { details?.type }
        set { if newValue != nil || details != nil { writableDetails().type = newValue } }
    }
    /// Links: the pattern and the path.
    public var link: LinkDeclaration? {
        get { details?.link }
        set { if newValue != nil || details != nil { writableDetails().link = newValue } }
    }
    /// Dependencies read from a line without its keyword (`appStore: AppStore`, a syntax
    /// error): it may have meant `optional` as well, so a use of either kind is not also a
    /// `wrong-kind` error.
    public var kindGuessed: Bool {
        get { details?.kindGuessed ?? false }
        set { if newValue || details != nil { writableDetails().kindGuessed = newValue } }
    }
    /// Whether the declaration holds a link (``link``), without copying it out.
    public var hasLink: Bool { details?.link != nil }
    /// Dependencies: `from P`.
    public var from: Name? {
        get { details?.from }
        set { if newValue != nil || details != nil { writableDetails().from = newValue } }
    }

    public init(kind: DeclarationKind, name: Name, range: Range<Int>, doc: String? = nil) {
        self.kind = kind
        self.name = name
        extent = Range32(range)
        self.doc = doc
    }

    /// The details, copied first when another declaration shares them (a value, as an array
    /// is: a copy of a declaration never sees the other's writes).
    private mutating func writableDetails() -> Details {
        if details != nil && isKnownUniquelyReferenced(&details!) { return details! }
        let copy = Details(copying: details)
        details = copy
        return copy
    }

    /// Written only through `writableDetails()`, on a reference no other declaration holds.
    private final class Details: @unchecked Sendable {
        var doc: String?
        var type: String?
        var from: Name?
        var link: LinkDeclaration?
        var kindGuessed = false

        init(copying other: Details?) {
            link = other?.link
            kindGuessed = other?.kindGuessed ?? false
            doc = other?.doc
            type = other?.type
            from = other?.from
        }
    }
}
