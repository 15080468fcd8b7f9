// The little of Combine that SwiftUI apps use through `import SwiftUI` (which re-exports
// it): `ObservableObject`, its publisher, and `@Published`, with Combine's public
// signatures. Nothing is published: SwiftUI's redrawing is not mirrored (a test renders the
// views again after a change).

/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed.
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// A publisher that publishes changes from observable objects.
public final class ObservableObjectPublisher {
    public init() {}

    /// Sends the changed value to the downstream subscriber.
    public func send() {}
}

/// A type that publishes a property marked with an attribute.
@propertyWrapper
public struct Published<Value> {
    private var value: Value

    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        value = initialValue
    }

    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }
}
