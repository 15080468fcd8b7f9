import Oracles
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The links of every program against the matcher: a URL made from a link's pattern matches
/// it; each tie `LinkOverlap` finds has its witness URL won by both links; a shadowed link
/// wins none of the URLs made from its pattern, and a link that is not shadowed wins its own
/// sample URL unless a tie or a more specific link takes it. Any text of the input, read as a
/// URL, parses or is refused without a trap. Where the URLs of a finite alphabet are few
/// enough, the shadowed links and the ties are those the brute-force reference finds
/// (`LinkReference`).
func checkLinks(_ session: AnalysisSession, input: [UInt8]) {
    let project = session.project
    for program in project.programs {
        guard let links = session.links(ofProgramRootedAt: program.root) else { continue }
        let (typed, _) = links.matching
        guard !typed.isEmpty else { continue }
        let overlap = LinkOverlap.analyse(typed)
        for (index, link) in typed.enumerated() {
            let sample = sampleURL(link)
            guard case .success(let url) = LinkURL.parse(sample) else {
                invariant(false, "the sample URL \(sample) of \(link.name) does not parse")
                continue
            }
            guard case .match = LinkMatcher.match(link, url) else {
                invariant(false, "\(link.name) does not match its own sample URL \(sample)")
                continue
            }
            let winners = LinkMatcher.winners(typed, url)
            if overlap.shadowed[index] != nil {
                invariant(!winners.contains(index) && !winners.isEmpty, "\(link.name) is shadowed but wins \(sample)")
            }
        }
        // Against the reference, where its enumeration is small enough.
        if let (shadowed, ties) = LinkReference.overlaps(typed, limit: 20_000) {
            invariant(Set(overlap.shadowed.keys) == shadowed,
                      "shadowed links \(overlap.shadowed.keys.sorted()), the reference finds \(shadowed.sorted())")
            invariant(Set(overlap.ties.map { [$0.first, $0.second] }) == ties,
                      "ties \(overlap.ties.map { [$0.first, $0.second] }), the reference finds \(ties.sorted { $0.lexicographicallyPrecedes($1) })")
        }
        for tie in overlap.ties {
            guard case .success(let url) = LinkURL.parse(tie.url) else {
                invariant(false, "the witness \(tie.url) of a tie does not parse")
                continue
            }
            let winners = LinkMatcher.winners(typed, url)
            invariant(winners.contains(tie.first) && winners.contains(tie.second),
                      "\(typed[tie.first].name) and \(typed[tie.second].name) do not both win their witness \(tie.url): \(winners)")
        }
        // Lines of the input as URLs: parsed or refused, and matched, without a trap.
        for line in input.split(separator: 0x0A).prefix(16) {
            if case .success(let url) = LinkURL.parse(String(decoding: line.prefix(512), as: UTF8.self)) {
                _ = links.match(url)
            }
        }
    }
}

/// A URL a link matches: its literals, and for each placeholder a value its type accepts;
/// every query item given.
func sampleURL(_ link: TypedLink) -> String {
    func value(_ placeholder: String) -> String {
        switch link.type(of: placeholder) {
        case .int: return "7"
        case .double: return "7.5"
        case .bool: return "true"
        case .string, .other: return "v"
        }
    }
    var text = ""
    for segment in link.pattern.segments {
        switch segment {
        case .literal(let literal): text += "/" + encode(literal)
        case .placeholder(let name, _): text += "/" + value(name)
        }
    }
    if text.isEmpty { text = "/" }
    let items = link.pattern.query.map { "\(encode($0.key))=\(value($0.placeholder))" }
    return items.isEmpty ? text : text + "?" + items.joined(separator: "&")
}

/// Percent-encoded: every byte but letters, digits and `-._~`.
private func encode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        if (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte) {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            let digits = Array("0123456789ABCDEF".unicodeScalars)
            out.unicodeScalars.append("%")
            out.unicodeScalars.append(digits[Int(byte >> 4)])
            out.unicodeScalars.append(digits[Int(byte & 15)])
        }
    }
    return out
}
