import Testing
@testable import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// An expected finding, written by hand: rule, 1-based line and column (bytes), and the
/// exact text of the primary range.
struct ExpectedFinding: Sendable, CustomStringConvertible {
    var rule: RuleID
    var line: Int
    var column: Int
    var text: String

    init(_ rule: RuleID, _ line: Int, _ column: Int, _ text: String) {
        self.rule = rule
        self.line = line
        self.column = column
        self.text = text
    }

    var description: String { "\(line):\(column) \(rule.rawValue) «\(text)»" }
}

/// A subtle point of the build semantics or the rules (docs/language.md#how-a-path-is-built,
/// docs/rules.md), as a program and what the language says about it.
struct HandCase: Sendable, CustomTestStringConvertible {
    var name: String
    var source: String
    var expected: [ExpectedFinding]

    var testDescription: String { name }
}

enum HandCases {
    static let all: [HandCase] = [
        HandCase(name: "an if-let branch that falls through does not shadow what follows", source: """
            screen Home
            optional draft: Draft
            root {
              anyOf {
                if let draft { screen Home uses draft }
                screen Home
              }
            }
            """, expected: []),

        HandCase(name: "a conditional that falls through does not shadow what follows", source: """
            screen Home
            flag isLoggedIn
            root {
              anyOf {
                conditional isLoggedIn { screen Home } else { empty }
                screen Home
              }
            }
            """, expected: []),

        HandCase(name: "a conditional whose both sides take the screen shadows a later branch", source: """
            screen Home
            screen Settings
            flag isAdmin
            root {
              anyOf {
                conditional isAdmin { screen Home } else { screen Home }
                screen Home
                screen Settings
              }
            }
            """, expected: [
                ExpectedFinding(.shadowedBranch, 7, 5, "screen Home"),
            ]),

        HandCase(name: "if screen with a mismatched then-branch: the screen under it is unreachable, nothing is shadowed", source: """
            screen Home
            screen Settings
            root {
              anyOf {
                if screen Home { screen Settings }
                screen Home
                screen Settings
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 5, 22, "screen Settings"),
            ]),

        HandCase(name: "a wildcard that is not last shadows every later branch", source: """
            screen Home
            screen Settings
            root {
              anyOf {
                wildcard Home { screen Home }
                screen Settings
              }
            }
            """, expected: [
                ExpectedFinding(.shadowedBranch, 6, 5, "screen Settings"),
            ]),

        HandCase(name: "a wildcard whose builder cannot build its screen is reported once, not what is inside", source: """
            screen Home
            screen Settings
            root {
              anyOf {
                screen Settings
                wildcard Home { screen Settings }
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 1, 8, "Home"),
                ExpectedFinding(.wildcardMismatch, 6, 5, "wildcard Home"),
            ]),

        HandCase(name: "a wildcard builds only its own screen: another screen under it is unreachable", source: """
            screen Home
            screen Settings
            root {
              wildcard Home {
                anyOf { screen Settings screen Home }
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 5, 13, "screen Settings"),
            ]),

        HandCase(name: "a condition that contradicts an enclosing one makes its screen unreachable", source: """
            screen Home
            screen Settings
            flag isLoggedIn
            root {
              conditional isLoggedIn {
                conditional isLoggedIn { screen Home } else { screen Settings }
              } else {
                screen Settings
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 6, 51, "screen Settings"),
            ]),

        HandCase(name: "partial shadowing: one screen of a branch is dead, the branch is not", source: """
            screen Home
            screen Settings
            root {
              anyOf {
                screen Home
                anyOf { screen Home screen Settings }
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 6, 13, "screen Home"),
            ]),

        HandCase(name: "a dependency from a screen, provided on one way and not on another", source: """
            screen Home
            screen Login
            screen Settings
            dependency settingsStore: SettingsStore from Home
            builder settings { screen Settings uses settingsStore }
            root {
              anyOf {
                screen Home { settings }
                screen Login { settings }
              }
            }
            """, expected: [
                ExpectedFinding(.missingDependency, 5, 41, "settingsStore"),
            ]),

        HandCase(name: "an optional in scope on one way (inside if let) and out of scope on another", source: """
            screen Detail
            optional draft: Draft
            builder detail { screen Detail uses draft }
            root {
              anyOf {
                if let draft { detail }
                detail
              }
            }
            """, expected: [
                ExpectedFinding(.missingDependency, 3, 37, "draft"),
            ]),

        HandCase(name: "an optional stays in scope through references and the nestings of later elements", source: """
            screen Home
            screen Detail sheet
            optional draft: Draft
            builder detail { screen Detail uses draft { detail } }
            root {
              if let draft { screen Home { detail } }
            }
            """, expected: []),

        HandCase(name: "an optional is not in scope in the else block of its if let", source: """
            screen Home
            screen Login
            optional session: Session
            root {
              if let session { screen Home uses session } else { screen Login uses session }
            }
            """, expected: [
                ExpectedFinding(.missingDependency, 5, 72, "session"),
            ]),

        HandCase(name: "a screen does not provide its dependency to itself", source: """
            screen Home
            dependency homeStore: HomeStore from Home
            root { screen Home uses homeStore }
            """, expected: [
                ExpectedFinding(.missingDependency, 3, 25, "homeStore"),
            ]),

        HandCase(name: "if let of an optional from a screen needs that screen before it, like uses", source: """
            screen Home
            screen Detail
            optional draft: Draft from Home
            root {
              anyOf {
                screen Home { if let draft { screen Detail uses draft } }
                if let draft { screen Detail uses draft }
              }
            }
            """, expected: [
                ExpectedFinding(.missingDependency, 7, 12, "draft"),
                ExpectedFinding(.missingDependency, 7, 39, "draft"),
            ]),

        HandCase(name: "a push after a sheet(allowsPush: false) on every path", source: """
            screen Home
            screen Modal sheet(allowsPush: false)
            screen Settings
            root {
              anyOf {
                screen Home { screen Settings }
                screen Modal { screen Settings }
              }
            }
            """, expected: [
                ExpectedFinding(.pushInSheet, 7, 20, "screen Settings"),
            ]),

        HandCase(name: "a push after a no-push sheet on some paths only, or after a later sheet, is fine", source: """
            screen Home
            screen Modal sheet(allowsPush: false)
            screen Detail sheet
            screen Settings
            builder settings { screen Settings }
            root {
              anyOf {
                screen Home { settings }
                screen Modal { anyOf { settings screen Detail { screen Settings } } }
              }
            }
            """, expected: []),

        HandCase(name: "a cycle through two builders is reported once, at its first reference in source order", source: """
            screen Home
            screen Settings
            screen Profile
            builder a { anyOf { screen Home b } }
            builder b { anyOf { screen Settings a } }
            root { anyOf { a screen Profile } }
            """, expected: [
                // Profile makes `a` reach `b` and `b` reach `a`: a Profile element never
                // finishes, so the reachability warnings this causes are not reported.
                ExpectedFinding(.builderCycle, 4, 33, "b"),
            ]),

        HandCase(name: "a cycle is an error even when no path of the program runs into it", source: """
            screen Home
            screen Settings
            builder home { anyOf { screen Home home } }
            root { anyOf { screen Settings home } }
            """, expected: [
                ExpectedFinding(.builderCycle, 3, 36, "home"),
            ]),

        HandCase(name: "a cycle that only one element reaches, through if screen", source: """
            screen Home
            screen Settings
            builder a { if screen Settings { a } else { screen Home } }
            root { anyOf { screen Settings a } }
            """, expected: [
                ExpectedFinding(.builderCycle, 3, 34, "a"),
            ]),

        HandCase(name: "references that contradicting conditions never run one after the other are no cycle", source: """
            screen Home
            flag isOn
            builder a { conditional isOn { b } else { screen Home } }
            builder b { conditional isOn { screen Home } else { a } }
            root { a }
            """, expected: []),

        HandCase(name: "a cycle behind another cycle is never reached: one builder-cycle", source: """
            screen Home
            builder b { anyOf { b c } }
            builder c { anyOf { screen Home b } }
            root { b }
            """, expected: [
                // build(b) never gets past its first branch; `c`'s reference to `b` is met only
                // from `c`, where it closes the same cycle through `b`'s first branch.
                ExpectedFinding(.builderCycle, 2, 21, "b"),
            ]),

        HandCase(name: "a reference back to its own builder that is never reached is shadowed, not a cycle", source: """
            screen Home
            builder flow { anyOf { wildcard Home { screen Home } flow } }
            root { flow }
            """, expected: [
                ExpectedFinding(.shadowedBranch, 2, 54, "flow"),
            ]),

        HandCase(name: "a build that meets a cycle never finishes: no error after it, and only warnings no outcome of the cycle could change", source: """
            screen Home
            screen Settings
            optional draft: Draft
            builder flow { anyOf { flow screen Settings screen Home uses draft } }
            root { wildcard Home { flow } }
            """, expected: [
                // Every element reaches `flow` again before anything is built: `screen Home`
                // is never built, so `draft` is never missing there, but whether it could be
                // built involves the cycle; `screen Settings` could not, whatever the cycle gave.
                ExpectedFinding(.builderCycle, 4, 24, "flow"),
                ExpectedFinding(.unreachableScreen, 4, 29, "screen Settings"),
            ]),

        HandCase(name: "a warning that holds only if a cycle is read as building nothing is not reported", source: """
            screen Home
            screen Modal sheet(allowsPush: false)
            screen Settings
            builder flow { anyOf { screen Modal flow } }
            root { anyOf { screen Home screen Modal { anyOf { flow screen Settings } } } }
            """, expected: [
                // A Settings element after Modal never finishes (`flow` cycles): it would be
                // pushed after a no-push sheet only if the cycle built nothing and went on.
                ExpectedFinding(.builderCycle, 4, 37, "flow"),
            ]),

        HandCase(name: "a cycle met only after some element leaves the warnings of the rest alone", source: """
            screen Home
            screen Settings
            builder loop { anyOf { screen Settings loop } }
            root {
              anyOf {
                screen Home { loop }
                screen Home
              }
            }
            """, expected: [
                ExpectedFinding(.builderCycle, 3, 40, "loop"),
                ExpectedFinding(.shadowedBranch, 7, 5, "screen Home"),
            ]),

        HandCase(name: "a cycle in a branch that is never evaluated does not involve the shadowing of a later branch", source: """
            screen Home
            screen Detail
            flag isOn
            builder loop { anyOf { screen Home loop } }
            root {
              conditional isOn {
                empty
              } else {
                anyOf {
                  conditional isOn { loop } else { screen Detail }
                  screen Detail
                }
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 4, 24, "screen Home"),
                ExpectedFinding(.builderCycle, 4, 36, "loop"),
                ExpectedFinding(.shadowedBranch, 11, 7, "screen Detail"),
            ]),

        HandCase(name: "recursion through a nesting is fine", source: """
            screen Detail sheet
            builder detail { screen Detail { detail } }
            root { detail }
            """, expected: []),

        HandCase(name: "outermost cause once: nothing inside a shadowed branch, nor in a builder used only there", source: """
            screen Home
            screen Settings
            builder extra { anyOf { screen Home { screen Settings } if screen Settings { screen Home } } }
            root {
              anyOf {
                wildcard Home { screen Home }
                extra
              }
            }
            """, expected: [
                ExpectedFinding(.shadowedBranch, 7, 5, "extra"),
            ]),

        HandCase(name: "outermost cause once: nothing inside an unreachable node's nesting", source: """
            screen Home
            screen Settings
            root {
              anyOf {
                screen Home
                anyOf {
                  screen Home { anyOf { screen Settings screen Settings } }
                  screen Settings
                }
              }
            }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 7, 7, "screen Home"),
            ]),

        HandCase(name: "outermost cause once: a builder's references to itself do not make it reported", source: """
            screen Home
            screen Detail
            builder detail { anyOf { screen Home screen Detail { detail } } }
            root {
              anyOf {
                screen Home
                anyOf { screen Home { detail } screen Detail }
              }
            }
            """, expected: [
                // `detail` is referenced only in the nesting of an unreachable node and in its
                // own nesting: nothing in it is reported.
                ExpectedFinding(.unreachableScreen, 7, 13, "screen Home"),
            ]),

        HandCase(name: "unused dependencies, flags and builders, also when only an unused builder mentions them", source: """
            screen Home
            flag isOn
            dependency store: Store
            builder unused { screen Home uses store }
            root { screen Home }
            """, expected: [
                ExpectedFinding(.unusedDeclaration, 2, 6, "isOn"),
                ExpectedFinding(.unusedDeclaration, 3, 12, "store"),
                ExpectedFinding(.unusedDeclaration, 4, 9, "unused"),
            ]),

        HandCase(name: "a screen whose only node is in an unused builder is never placed", source: """
            screen Home
            screen Settings
            builder unused { screen Settings }
            root { screen Home }
            """, expected: [
                ExpectedFinding(.unreachableScreen, 2, 8, "Settings"),
                ExpectedFinding(.unusedDeclaration, 3, 9, "unused"),
            ]),
    ]

    /// The expected findings as keys, after checking that each range holds the text the
    /// case says.
    static func keys(_ c: HandCase, in project: Project) -> Set<FindingKey> {
        let text = project.files[0].text
        return Set(c.expected.map { e in
            let start = text.offset(of: LineColumn(line: e.line - 1, column: e.column - 1), encoding: .utf8)
            let range = start..<(start + e.text.utf8.count)
            #expect(text.text(range) == e.text, "\(c.name): \(e) points at «\(text.text(range))»")
            return FindingKey(rule: e.rule, file: 0, lower: range.lowerBound, upper: range.upperBound)
        })
    }
}

@Suite struct ReferenceHandWrittenTests {
    /// The reference says what the language guide and the rule reference say.
    @Test(arguments: HandCases.all) func referenceFollowsTheSpec(_ c: HandCase) {
        let project = ReferenceSupport.project(c.source)
        #expect(project.diagnostics.isEmpty, "\(c.name): the case does not parse cleanly")
        let expected = HandCases.keys(c, in: project)
        let found = ReferenceChecker.check(project).findings
        let keys = Set(found.map { FindingKey(rule: $0.rule, file: $0.file, lower: $0.range.lowerBound, upper: $0.range.upperBound) })
        #expect(keys == expected, """
            \(c.name)
            \(ReferenceSupport.numbered(c.source))
            expected:
            \(c.expected.map { "  \($0)" }.joined(separator: "\n"))
            the reference found:
            \(found.map { describe($0.rule, $0.file, $0.range, $0.message, in: project) }.joined(separator: "\n"))
            """)
    }

    /// The product says what they say on the same cases.
    @Test(arguments: HandCases.all, [Semantics.Layout.conditionsAbove, .elementAbove])
    func analysisFollowsTheSpec(_ c: HandCase, _ layout: Semantics.Layout) {
        let project = ReferenceSupport.project(c.source)
        let expected = HandCases.keys(c, in: project)
        let found = Analysis.check(project, limits: AnalysisLimits(layout: layout)).filter { ReferenceChecker.rules.contains($0.rule) }
        let keys = Set(found.map { FindingKey(rule: $0.rule, file: $0.file, lower: $0.range.lowerBound, upper: $0.range.upperBound) })
        #expect(keys == expected, """
            \(c.name)
            \(ReferenceSupport.numbered(c.source))
            expected:
            \(c.expected.map { "  \($0)" }.joined(separator: "\n"))
            Analysis.check found:
            \(found.map { describe($0.rule, $0.file, $0.range, $0.message, in: project) }.joined(separator: "\n"))
            """)
    }

    /// The seed app (`Examples/Seed/App.routes`) is clean.
    @Test func theSeedAppIsClean() throws {
        let fixture = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/"))
        let path = "/" + fixture + "/Fixtures/valid/seed.routes"
        guard case .success(let bytes) = FileSystemProvider().read(path) else {
            Issue.record("cannot read \(path)")
            return
        }
        let project = ReferenceSupport.project(String(decoding: bytes, as: UTF8.self))
        #expect(ReferenceChecker.check(project).findings.isEmpty)
    }
}
