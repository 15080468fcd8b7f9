/// One-line explanations and snippets of keywords (hover on a keyword, completion items).
enum Keywords {
    /// The words that are keywords only inside a presentation (identifiers elsewhere).
    static func isContextual(_ word: String) -> Bool { word == "as" || word == "cover" || word == "popover" }

    static func explanation(_ word: String) -> String? {
        switch word {
        case "import": return "`import \"File.routes\"` makes the declarations of another file (relative to this one) visible here."
        case "screen": return "`screen S [uses d, ...] [{ nesting }]` builds a screen of type S; its nesting builds the next path element."
        case "screen-declaration": return "`screen S(label: Type, ...) [push | sheet | cover | popover]` declares a screen type and how it is presented (`sheet`, `cover` and `popover` may take `(allowsPush: false)`)."
        case "dependency": return "`dependency d: Type [from P]` declares a dependency: in scope everywhere, or after a `P` screen."
        case "optional": return "`optional o: Type [from P]` declares a value that may be nil: usable only inside `if let o { }`."
        case "flag": return "`flag f` declares a runtime condition, tested by `conditional f { } else { }`."
        case "builder": return "`builder name { B }` declares a reusable path builder; write `name` where a builder goes."
        case "root": return "`root { B }` is the program's entry builder: it builds the first path element."
        case "link": return "`link name \"/items/{id}\" -> Home/Detail(id: id)` declares a deep link: the URLs its pattern matches open its path."
        case "from": return "`from P`: provided by a `P` screen to what is built after it (not to `P` itself)."
        case "uses": return "`uses d1, d2` lists the dependencies and optionals a screen needs in scope."
        case "anyOf": return "`anyOf { B1 B2 ... }` tries its branches in order; the first that builds the element wins."
        case "conditional": return "`conditional f { A } else { B }` builds with A when flag f is true, with B when false (no fallback)."
        case "else": return "`else { B }`: the builder used when the condition does not hold."
        case "if": return "`if let o { A } [else { B }]` or `if screen S { A } [else { B }]`."
        case "if let": return "`if let o { A } [else { B }]` builds with A when optional o is present (o is in scope inside A), else with B."
        case "if screen": return "`if screen S { A } [else { B }]` builds with A when the element is an S, else with B."
        case "let": return "`if let o { A }`: A builds when the optional o is present."
        case "wildcard": return "`wildcard W { B }` builds any element as if it were a `W()` (W has no parameters), with B."
        case "empty": return "`empty` builds nothing."
        case "push": return "`push` (the default) presents the screen on the current navigation stack."
        case "sheet": return "`sheet` presents the screen modally, with its own stack; `sheet(allowsPush: false)` allows no pushes on it."
        case "cover": return "`cover` presents the screen full screen (SwiftUI's `fullScreenCover`), with its own stack; `cover(allowsPush: false)` allows no pushes on it. Every rule treats it as a sheet."
        case "popover": return "`popover` presents the screen as a popover (a sheet on compact widths), with its own stack; `popover(allowsPush: false)` allows no pushes on it. Every rule treats it as a sheet."
        case "as": return "`screen S as sheet`: the presentation of S at this placement, in place of its declaration's (`push`, `sheet`, `cover`, `popover`)."
        case "true", "false": return "`allowsPush: true | false`: whether screens can be pushed on the sheet, cover or popover."
        default: return nil
        }
    }

    static func snippet(_ word: String) -> String? {
        switch word {
        case "anyOf": return "anyOf {\n\t$0\n}"
        case "conditional": return "conditional ${1:flag} {\n\t$2\n} else {\n\t$0\n}"
        case "if let": return "if let ${1:optional} {\n\t$0\n}"
        case "if screen": return "if screen ${1:Screen} {\n\t$0\n}"
        case "wildcard": return "wildcard ${1:Screen} {\n\t$0\n}"
        case "else": return "else {\n\t$0\n}"
        case "import": return "import \"$0\""
        case "dependency": return "dependency ${1:name}: ${0:Type}"
        case "optional": return "optional ${1:name}: ${0:Type}"
        case "builder": return "builder ${1:name} {\n\t$0\n}"
        case "root": return "root {\n\t$0\n}"
        case "link": return "link ${1:name} \"${2:/path}\" -> $0"
        default: return nil
        }
    }
}
