import RoutesModel
import RoutesSyntax

/// `ambiguous-link`: some URL has two or more winners, so that which path it opens would
/// depend on the order the app happens to try its links in.
public enum AmbiguousLink: RuleDefinition {
    public static let id = RuleID("ambiguous-link")
    public static let severity = Severity.error
    public static let category = RuleCategory.links
    public static let summary = "Two links are the most specific match of one URL."
    public static let documentation = RuleDocumentation(
        what: """
            A URL that two links (or more) match equally well: of the links that match it, no \
            one is more specific than the others (a literal segment beats a typed placeholder, \
            which beats any other placeholder; then more required query items beat fewer). \
            Reported once per link that ties with one declared before it, at its pattern, with \
            a URL both match; related: those earlier links.
            """,
        why: """
            The order in which links are declared never decides: a URL with two winners \
            would open one path or the other depending on how the app tries its links.
            """,
        example: """
            screen Home
            screen Detail(id: String)
            screen Profile(name: String)
            link item "/{id}" -> Home/Detail(id: id)
            link user "/{name}" -> Home/Profile(name: name)
            root { screen Home { anyOf { screen Detail screen Profile } } }
            """,
        fix: """
            Make one link more specific (a literal segment, `/items/{id}` and `/users/{name}`), \
            or give the placeholders types that accept different URLs (an `Int` parameter \
            takes `/42` and a `String` one takes the rest).
            """)

    public struct Finding: Sendable, Hashable {
        public var link: String
        public var earlier: [String]
        public var url: String
    }

    public static func message(_ finding: Finding) -> String {
        let names = finding.earlier.map { "`\($0)`" }.joined(separator: ", ")
        return "the link `\(finding.link)` ties with \(names) for the URL `\(finding.url)`: neither is more specific, so which path it opens is undecided"
    }
}

/// `shadowed-link`: no URL has the link among its winners.
public enum ShadowedLink: RuleDefinition {
    public static let id = RuleID("shadowed-link")
    public static let severity = Severity.warning
    public static let category = RuleCategory.links
    public static let summary = "More specific links take every URL a link matches."
    public static let documentation = RuleDocumentation(
        what: """
            A link that wins no URL: every URL its pattern matches is matched by a more \
            specific link too. Related: those links.
            """,
        why: """
            The link never opens its path; it reads as though it did.
            """,
        example: """
            screen Home
            screen Settings(notifications: Bool)
            link notificationsOn "/settings/true" -> Home/Settings(notifications: true)
            link notificationsOff "/settings/false" -> Home/Settings(notifications: false)
            link notifications "/settings/{on}" -> Home/Settings(notifications: on)
            root { screen Home { screen Settings } }
            """,
        fix: """
            Remove the link, or change its pattern so that it matches URLs no other link takes.
            """)

    public struct Finding: Sendable, Hashable {
        public var link: String
        public var by: [String]
    }

    public static func message(_ finding: Finding) -> String {
        "the link `\(finding.link)` never wins a URL: \(finding.by.map { "`\($0)`" }.joined(separator: ", ")) \(finding.by.count == 1 ? "is" : "are") more specific for every URL it matches"
    }
}

/// `unbuildable-link`: in no environment is every element of the link's path built.
public enum UnbuildableLink: RuleDefinition {
    public static let id = RuleID("unbuildable-link")
    public static let severity = Severity.error
    public static let category = RuleCategory.links
    public static let summary = "A link's path is built in no environment."
    public static let documentation = RuleDocumentation(
        what: """
            A link whose path the routing tree never builds whole: whatever the flags and \
            optionals, some element is not built, and the link would land on a partial path. \
            Reported at the first element that is not built in an environment that builds \
            the longest prefix, with the reason, the way a path preview gives it. A path that \
            reaches an undeclared builder, a syntax hole or a builder cycle is not judged, nor \
            one whose first element not built is misspelt in the tree (`screen Detial` where \
            the path names `Detail`): that error is the one reported.
            """,
        why: """
            The URL opens the app on the screens before that element and silently drops the \
            rest: the screen the link promises never appears.
            """,
        example: """
            screen Home
            screen Detail(id: Int)
            link item "/items/{id}" -> Detail(id: id)
            root { screen Home { screen Detail } }
            """,
        fix: """
            Write the whole path from the root (`-> Home/Detail(id: id)`), or change the \
            tree so that it builds the path. When screens without parameters put before the \
            path make it buildable, a fix writes the shortest such prefix.
            """)
    public static let fixes = [
        RuleFix(.safe, """
            Put before the path the shortest run of screens without parameters that makes it \
            buildable (`-> Detail(id: id)` becomes `-> Home/Detail(id: id)`).
            """),
    ]

    public struct Finding: Sendable, Hashable {
        public var link: String
        public var element: String
        public var reason: String
        /// Screens without parameters that, put before the path, make it buildable.
        public var prefix: [String]?
    }

    /// What the fix reads: where the path starts, and the prefix to write there.
    public struct Detail: Sendable, Hashable {
        public var pathStart: Int
        public var prefix: [String]
    }

    public static func message(_ finding: Finding) -> String {
        var message = "the link `\(finding.link)` opens a path that is never built whole: `\(finding.element)` is not built (\(finding.reason))"
        if let prefix = finding.prefix { message += "; it is when the path starts with `\(prefix.joined(separator: "/"))/`" }
        return message
    }
}
