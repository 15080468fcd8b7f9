/// A JSON value.
///
/// Values are produced by ``JSON/parse(_:)`` (through json-c) or built in Swift, and written
/// with ``JSON/serialize(_:pretty:)``. Equality is structural: objects compare their entries
/// *in order* (see ``JSONObject``), `.int(1)` and `.double(1)` are different values, and
/// doubles compare as Swift `Double`s (so `.double(.nan) != .double(.nan)`).
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    /// An integer that fits in `Int64`. Parsed integers outside that range become ``double(_:)``.
    case int(Int64)
    /// A floating-point number. Non-finite values serialize as `null` (JSON has no NaN/Infinity).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    @inlinable public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    @inlinable public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    @inlinable public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    @inlinable public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    @inlinable public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal builds an object whose keys keep their source order.
    /// A repeated key keeps its first position and takes its last value (as json-c does).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The value for `key` if this is an object that has it; otherwise `nil`.
    @inlinable public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` if this is an array and `index` is in range; otherwise `nil`.
    @inlinable public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, if this is `.string`.
    @inlinable public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, if this is `.bool`.
    @inlinable public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is `.int`, or a `.double` that is integral and within `Int64`'s range
    /// (so `2.0` gives `2`, while `2.5` and `1e19` give `nil`).
    @inlinable public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The number as a `Double`, if this is `.int` (converted, possibly rounded) or `.double`.
    @inlinable public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The elements, if this is `.array`.
    @inlinable public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is `.object`.
    @inlinable public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value (``JSON/serialize(_:pretty:)``).
    public var description: String { JSON.serialize(self) }
}
