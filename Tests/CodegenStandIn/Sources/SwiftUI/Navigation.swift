// What the SwiftUI target of `routes gen swift` calls, with SwiftUI's public signatures for
// iOS 16 as the SDKs of Xcode 16 and later declare them (main-actor isolated, `Binding`'s
// closures `@isolated(any) @Sendable`): `Binding`, `ObservedObject`, `NavigationStack`,
// `navigationDestination(for:destination:)`, `sheet(item:onDismiss:content:)`,
// `fullScreenCover(item:onDismiss:content:)` and
// `popover(item:attachmentAnchor:arrowEdge:content:)`. Nothing is drawn: each view records
// what it would show, for `Hierarchy.swift`.

import Foundation
@_exported import Combine

/// A property wrapper type that can read and write a value owned by a source of truth.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// Closures the app gave (`init(get:set:)`), which run on their own isolation; or a
    /// location that SwiftUI made (`$object.property`), read and written on the main actor.
    enum Storage {
        case closures(get: @isolated(any) @Sendable () -> Value, set: @isolated(any) @Sendable (Value) -> Void)
        case location(get: () -> Value, set: (Value) -> Void)
    }

    let storage: Storage

    /// Creates a binding with closures that read and write the binding value.
    @preconcurrency public init(get: @escaping @isolated(any) @Sendable () -> Value,
                                set: @escaping @isolated(any) @Sendable (Value) -> Void) {
        storage = .closures(get: get, set: set)
    }

    init(location get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        storage = .location(get: get, set: set)
    }

    /// The value, read and written as SwiftUI does, on the main actor (a binding made with
    /// closures is read and written through the inspection, `Hierarchy.swift`).
    public var wrappedValue: Value {
        get {
            guard case .location(let get, _) = storage else { fatalError("the stand-in reads this binding through its inspection") }
            return get()
        }
        nonmutating set {
            guard case .location(_, let set) = storage else { fatalError("the stand-in writes this binding through its inspection") }
            set(newValue)
        }
    }

    /// Reads the value (for the inspection).
    @MainActor func read() async -> Value {
        switch storage {
        case .closures(let get, _): return await get()
        case .location(let get, _): return get()
        }
    }

    /// Writes the value (for the inspection).
    @MainActor func write(_ value: Value) async {
        switch storage {
        case .closures(_, let set): await set(value)
        case .location(_, let set): set(value)
        }
    }

    public var projectedValue: Binding<Value> { self }

    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("not used by the generated code")
    }
}

extension Binding: @unchecked Sendable where Value: Sendable {}

/// A property wrapper type that subscribes to an observable object and invalidates a view
/// whenever the observable object changes.
@MainActor @propertyWrapper @preconcurrency
public struct ObservedObject<ObjectType: ObservableObject> {
    /// A wrapper of the underlying observable object that can create bindings to its
    /// properties.
    @MainActor @dynamicMemberLookup @preconcurrency
    public struct Wrapper {
        let root: ObjectType

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let root = self.root
            return Binding(location: { root[keyPath: keyPath] }, set: { root[keyPath: keyPath] = $0 })
        }
    }

    @MainActor @preconcurrency public init(initialValue: ObjectType) {
        wrappedValue = initialValue
    }

    @MainActor @preconcurrency public init(wrappedValue: ObjectType) {
        self.wrappedValue = wrappedValue
    }

    @MainActor @preconcurrency public var wrappedValue: ObjectType

    @MainActor @preconcurrency public var projectedValue: ObservedObject<ObjectType>.Wrapper { Wrapper(root: wrappedValue) }
}

/// A view that displays a root view and enables you to present additional views over the
/// root view.
@MainActor @preconcurrency
public struct NavigationStack<Data, Root: View>: View {
    let root: Root
    /// The path's elements, and a path of the first `n` of them set (for `Hierarchy.swift`).
    let pathElements: @MainActor () async -> [Any]
    let setPathCount: @MainActor (Int) async -> Void

    /// Creates a navigation stack with homogeneous navigation state that you can control.
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root)
    where Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection, Data.Element: Hashable {
        self.root = root()
        pathElements = { await path.read().map { $0 as Any } }
        setPathCount = { n in
            var data = await path.read()
            data.removeLast(data.count - n)
            await path.write(data)
        }
    }

    public var body: Never { fatalError("a primitive view has no body") }
}

/// A view with a destination for a type of data that a navigation stack presents.
public struct _NavigationDestinationView<Content: View, D: Hashable, C: View>: View {
    let content: Content
    let destination: (D) -> C
    public var body: Never { fatalError("a primitive view has no body") }
}

/// How a presentation modifier shows its content.
public enum _PresentationKind: String, Sendable {
    case sheet, fullScreenCover, popover
}

/// A view that presents another view when an item is given.
public struct _PresentationView<Content: View, Item: Identifiable, Presented: View>: View {
    let kind: _PresentationKind
    let content: Content
    let item: Binding<Item?>
    let presented: (Item) -> Presented
    public var body: Never { fatalError("a primitive view has no body") }
}

/// An attachment anchor for a popover.
public enum PopoverAttachmentAnchor {
    case rect(Anchor<CGRect>.Source)
    case point(UnitPoint)
}

/// An opaque value derived from an anchor source and a particular view.
public struct Anchor<Value> {
    /// A type-erased geometry value that produces an anchored value of a given type.
    public struct Source {}
}

extension Anchor.Source where Value == CGRect {
    /// The bounds of the view.
    public static var bounds: Anchor<CGRect>.Source { Anchor<CGRect>.Source() }
}

/// A normalized 2D point in a view's coordinate space.
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
}

/// An enumeration to indicate one edge of a rectangle.
public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing
}

extension View {
    /// Associates a destination view with a presented data type for use within a
    /// navigation stack.
    @MainActor @preconcurrency
    public func navigationDestination<D, C>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C) -> some View
    where D: Hashable, C: View {
        _NavigationDestinationView(content: self, destination: destination)
    }

    /// Presents a sheet using the given item as a data source for the sheet's content.
    @MainActor @preconcurrency
    public func sheet<Item, Content>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                     @ViewBuilder content: @escaping (Item) -> Content) -> some View
    where Item: Identifiable, Content: View {
        _PresentationView(kind: .sheet, content: self, item: item, presented: content)
    }

    /// Presents a modal view that covers as much of the screen as possible using the given
    /// item as a data source for the modal's content.
    @MainActor @preconcurrency
    public func fullScreenCover<Item, Content>(item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
                                               @ViewBuilder content: @escaping (Item) -> Content) -> some View
    where Item: Identifiable, Content: View {
        _PresentationView(kind: .fullScreenCover, content: self, item: item, presented: content)
    }

    /// Presents a popover using the given item as a data source for the popover's content.
    @MainActor @preconcurrency
    public func popover<Item, Content>(item: Binding<Item?>, attachmentAnchor: PopoverAttachmentAnchor = .rect(.bounds),
                                       arrowEdge: Edge = .top, @ViewBuilder content: @escaping (Item) -> Content) -> some View
    where Item: Identifiable, Content: View {
        _PresentationView(kind: .popover, content: self, item: item, presented: content)
    }
}
