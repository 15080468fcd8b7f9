/// ANSI styles, applied only when colour is on.
struct Style {
    var enabled: Bool

    func apply(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    func bold(_ t: String) -> String { apply("1", t) }
    func red(_ t: String) -> String { apply("1;31", t) }
    func yellow(_ t: String) -> String { apply("1;33", t) }
    func green(_ t: String) -> String { apply("1;32", t) }
    func cyan(_ t: String) -> String { apply("1;36", t) }
    func dim(_ t: String) -> String { apply("2", t) }
}
