import CJSONC

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions between ``JSONValue`` and json-c object trees.
///
/// json-c represents JSON `null` as a NULL `json_object *`, hence the optional pointers.
enum JSONCTree {
    // MARK: json-c → Swift

    /// The value of a json-c tree. Does not take or release any reference.
    static func value(of object: OpaquePointer?) -> JSONValue {
        guard let object else { return .null }
        switch json_object_get_type(object) {
        case json_type_boolean:
            return .bool(json_object_get_boolean(object) != 0)
        case json_type_int:
            let value = json_object_get_int64(object)
            // json-c stores integers in (Int64.max, UInt64.max] as uint64, and get_int64 clamps
            // them to Int64.max. (The parser rewrites such literals as doubles before json-c sees
            // them; this is a second line of defence.)
            if value == .max {
                let unsigned = json_object_get_uint64(object)
                if unsigned > UInt64(Int64.max) { return .double(Double(unsigned)) }
            }
            return .int(value)
        case json_type_double:
            return .double(json_object_get_double(object))
        case json_type_string:
            // The length, not strlen: the string may contain U+0000.
            let length = Int(json_object_get_string_len(object))
            guard let characters = json_object_get_string(object) else { return .string("") }
            return .string(String(decoding: UnsafeRawBufferPointer(start: characters, count: length), as: UTF8.self))
        case json_type_array:
            let count = json_object_array_length(object)
            var elements = [JSONValue]()
            elements.reserveCapacity(count)
            for index in 0..<count {
                elements.append(value(of: json_object_array_get_idx(object, index)))
            }
            return .array(elements)
        case json_type_object:
            guard let table = json_object_get_object(object) else { return .object(JSONObject()) }
            var entries = [JSONObject.Entry]()
            entries.reserveCapacity(Int(lh_table_length(table)))
            var keysRepaired = false
            var cursor = lh_table_head(table)
            while let entry = cursor {
                let keyPointer = lh_entry_k(entry)!.assumingMemoryBound(to: CChar.self)
                let key: String
                if let valid = String(validatingCString: keyPointer) {
                    key = valid
                } else {
                    key = String(decoding: UnsafeRawBufferPointer(start: keyPointer, count: strlen(keyPointer)), as: UTF8.self)
                    keysRepaired = true
                }
                entries.append(JSONObject.Entry(key: key, value: value(of: OpaquePointer(lh_entry_v(entry)))))
                cursor = lh_entry_next(entry)
            }
            // json-c's keys are distinct byte strings, but repairing invalid UTF-8 can make two
            // of them equal: only then take the slow path that merges duplicates.
            if keysRepaired {
                return .object(JSONObject(entries.map { ($0.key, $0.value) }))
            }
            return .object(JSONObject(uniqueEntries: entries))
        default:
            return .null
        }
    }

    // MARK: Swift → json-c

    /// A new json-c tree for `value` (the caller owns the one reference to the root), or `nil`
    /// for JSON null. With `pretty`, empty arrays and objects print as `[]` and `{}`: json-c's
    /// pretty printer would write them over two lines.
    static func make(_ value: JSONValue, pretty: Bool) -> OpaquePointer? {
        switch value {
        case .null:
            return nil
        case .bool(let flag):
            return allocated(json_object_new_boolean(flag ? 1 : 0))
        case .int(let number):
            return allocated(json_object_new_int64(number))
        case .double(let number):
            guard number.isFinite else { return nil }
            // json_object_new_double prints "%.17g" (0.1 comes out as 0.10000000000000001).
            // Give json-c Swift's shortest round-trip text, which it prints verbatim.
            return number.description.withCString { allocated(json_object_new_double_s(number, $0)) }
        case .string(let text):
            return makeString(text)
        case .array(let elements):
            // A zero initial size would make json-c malloc(0).
            let array = allocated(json_object_new_array_ext(Int32(clamping: max(elements.count, 1))))
            for element in elements {
                precondition(json_object_array_add(array, make(element, pretty: pretty)) == 0,
                             "json-c: out of memory while serializing JSON")
            }
            if pretty && elements.isEmpty { printVerbatim(array, "[]") }
            return array
        case .object(let object):
            let result = allocated(json_object_new_object())
            // Keys are distinct, so json-c need not look them up (JSON_C_OBJECT_ADD_KEY_IS_NEW)...
            var options = UInt32(JSON_C_OBJECT_ADD_KEY_IS_NEW)
            for entry in object.entries {
                let child = make(entry.value, pretty: pretty)
                let key = entry.key
                var status = key.withCString { cKey -> Int32 in
                    guard strlen(cKey) == key.utf8.count else { return -2 }  // the key contains a NUL
                    return json_object_object_add_ex(result, cKey, child, options)
                }
                if status == -2 {
                    // ...but json-c would cut this key at the NUL, and replacing the NUL may make
                    // it equal to another key: from here on, let json-c look keys up (a repeated
                    // key then keeps its first position and takes the last value).
                    options = 0
                    let repaired = String(String.UnicodeScalarView(key.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
                    status = repaired.withCString { json_object_object_add_ex(result, $0, child, options) }
                }
                precondition(status == 0, "json-c: out of memory while serializing JSON")
            }
            if pretty && object.isEmpty { printVerbatim(result, "{}") }
            return result
        }
    }

    private static func makeString(_ text: String) -> OpaquePointer {
        var text = text
        return text.withUTF8 { bytes in
            precondition(bytes.count <= Int(Int32.max), "json-c cannot hold strings of 2 GiB or more")
            guard let base = bytes.baseAddress else { return allocated(json_object_new_string("")) }
            // The length, not a C string: the text may contain U+0000.
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                allocated(json_object_new_string_len($0, Int32(bytes.count)))
            }
        }
    }

    /// Makes json-c print `object` as `text` (the documented use of
    /// `json_object_userdata_to_json_string`, which frees the copy with the object).
    private static func printVerbatim(_ object: OpaquePointer, _ text: StaticString) {
        // json_object_free_userdata calls free(): allocate with malloc.
        let userdata = text.withUTF8Buffer { bytes -> UnsafeMutableRawPointer in
            guard let memory = malloc(bytes.count + 1) else {
                fatalError("json-c: out of memory while serializing JSON")
            }
            memory.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            memory.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
            return memory
        }
        json_object_set_serializer(object, json_object_userdata_to_json_string, userdata, json_object_free_userdata)
    }

    @inline(__always) private static func allocated(_ object: OpaquePointer?) -> OpaquePointer {
        guard let object else { fatalError("json-c: out of memory while serializing JSON") }
        return object
    }
}
