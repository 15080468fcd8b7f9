// `PathBuilders.anyOf` with 2 to 10 builders, and the either-views of its results, as the
// library has them (it generates them with gyb; they are written out here).

import SwiftUI

/// One of 2 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherAB<A: View, B: View>: View {
    case a(A)
    case b(B)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        }
    }
}

/// One of 3 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABC<A: View, B: View, C: View>: View {
    case a(A)
    case b(B)
    case c(C)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        }
    }
}

/// One of 4 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCD<A: View, B: View, C: View, D: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        }
    }
}

/// One of 5 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDE<A: View, B: View, C: View, D: View, E: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        }
    }
}

/// One of 6 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDEF<A: View, B: View, C: View, D: View, E: View, F: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)
    case f(F)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        case let .f(view): view
        }
    }
}

/// One of 7 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDEFG<A: View, B: View, C: View, D: View, E: View, F: View, G: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)
    case f(F)
    case g(G)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        case let .f(view): view
        case let .g(view): view
        }
    }
}

/// One of 8 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDEFGH<A: View, B: View, C: View, D: View, E: View, F: View, G: View, H: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)
    case f(F)
    case g(G)
    case h(H)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        case let .f(view): view
        case let .g(view): view
        case let .h(view): view
        }
    }
}

/// One of 9 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDEFGHI<A: View, B: View, C: View, D: View, E: View, F: View, G: View, H: View, I: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)
    case f(F)
    case g(G)
    case h(H)
    case i(I)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        case let .f(view): view
        case let .g(view): view
        case let .h(view): view
        case let .i(view): view
        }
    }
}

/// One of 10 views: the one made by the branch (of an `anyOf`, or of an `if`) that built the element.
public enum EitherABCDEFGHIJ<A: View, B: View, C: View, D: View, E: View, F: View, G: View, H: View, I: View, J: View>: View {
    case a(A)
    case b(B)
    case c(C)
    case d(D)
    case e(E)
    case f(F)
    case g(G)
    case h(H)
    case i(I)
    case j(J)

    public var body: some View {
        switch self {
        case let .a(view): view
        case let .b(view): view
        case let .c(view): view
        case let .d(view): view
        case let .e(view): view
        case let .f(view): view
        case let .g(view): view
        case let .h(view): view
        case let .i(view): view
        case let .j(view): view
        }
    }
}

extension PathBuilders {
    /// The view of the first of the 2 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder
    ) -> _PathBuilder<EitherAB<ABuilder.Content, BBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            return nil
        }
    }

    /// The view of the first of the 3 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder
    ) -> _PathBuilder<EitherABC<ABuilder.Content, BBuilder.Content, CBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            return nil
        }
    }

    /// The view of the first of the 4 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder
    ) -> _PathBuilder<EitherABCD<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            return nil
        }
    }

    /// The view of the first of the 5 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder
    ) -> _PathBuilder<EitherABCDE<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            return nil
        }
    }

    /// The view of the first of the 6 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder, FBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder, _ f: FBuilder
    ) -> _PathBuilder<EitherABCDEF<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content, FBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            if let view = f.build(pathElement: element) { return .f(view) }
            return nil
        }
    }

    /// The view of the first of the 7 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder, FBuilder: PathBuilder, GBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder, _ f: FBuilder, _ g: GBuilder
    ) -> _PathBuilder<EitherABCDEFG<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content, FBuilder.Content, GBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            if let view = f.build(pathElement: element) { return .f(view) }
            if let view = g.build(pathElement: element) { return .g(view) }
            return nil
        }
    }

    /// The view of the first of the 8 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder, FBuilder: PathBuilder, GBuilder: PathBuilder, HBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder, _ f: FBuilder, _ g: GBuilder, _ h: HBuilder
    ) -> _PathBuilder<EitherABCDEFGH<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content, FBuilder.Content, GBuilder.Content, HBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            if let view = f.build(pathElement: element) { return .f(view) }
            if let view = g.build(pathElement: element) { return .g(view) }
            if let view = h.build(pathElement: element) { return .h(view) }
            return nil
        }
    }

    /// The view of the first of the 9 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder, FBuilder: PathBuilder, GBuilder: PathBuilder, HBuilder: PathBuilder, IBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder, _ f: FBuilder, _ g: GBuilder, _ h: HBuilder, _ i: IBuilder
    ) -> _PathBuilder<EitherABCDEFGHI<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content, FBuilder.Content, GBuilder.Content, HBuilder.Content, IBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            if let view = f.build(pathElement: element) { return .f(view) }
            if let view = g.build(pathElement: element) { return .g(view) }
            if let view = h.build(pathElement: element) { return .h(view) }
            if let view = i.build(pathElement: element) { return .i(view) }
            return nil
        }
    }

    /// The view of the first of the 10 builders that builds the element (in order), or nothing.
    public static func anyOf<ABuilder: PathBuilder, BBuilder: PathBuilder, CBuilder: PathBuilder, DBuilder: PathBuilder, EBuilder: PathBuilder, FBuilder: PathBuilder, GBuilder: PathBuilder, HBuilder: PathBuilder, IBuilder: PathBuilder, JBuilder: PathBuilder>(
        _ a: ABuilder, _ b: BBuilder, _ c: CBuilder, _ d: DBuilder, _ e: EBuilder, _ f: FBuilder, _ g: GBuilder, _ h: HBuilder, _ i: IBuilder, _ j: JBuilder
    ) -> _PathBuilder<EitherABCDEFGHIJ<ABuilder.Content, BBuilder.Content, CBuilder.Content, DBuilder.Content, EBuilder.Content, FBuilder.Content, GBuilder.Content, HBuilder.Content, IBuilder.Content, JBuilder.Content>> {
        _PathBuilder { element in
            if let view = a.build(pathElement: element) { return .a(view) }
            if let view = b.build(pathElement: element) { return .b(view) }
            if let view = c.build(pathElement: element) { return .c(view) }
            if let view = d.build(pathElement: element) { return .d(view) }
            if let view = e.build(pathElement: element) { return .e(view) }
            if let view = f.build(pathElement: element) { return .f(view) }
            if let view = g.build(pathElement: element) { return .g(view) }
            if let view = h.build(pathElement: element) { return .h(view) }
            if let view = i.build(pathElement: element) { return .i(view) }
            if let view = j.build(pathElement: element) { return .j(view) }
            return nil
        }
    }
}
