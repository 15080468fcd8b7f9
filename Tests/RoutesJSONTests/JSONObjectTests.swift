import TestSupport
import RoutesJSON
import Testing

@Test func pairsWithRepeatedKeysKeepTheFirstPositionAndTheLastValue() {
    let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
    #expect(object.keys == ["a", "b"])
    #expect(object["a"] == 3)
    #expect(object.count == 2)
    let literal: JSONObject = ["x": 1, "y": 2, "x": 5]
    #expect(literal.keys == ["x", "y"])
    #expect(literal["x"] == 5)
}

@Test func settingAnExistingKeyReplacesItInPlace() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = "new"
    #expect(object.keys == ["a", "b", "c"])
    #expect(object.values == [1, "new", 3])
}

@Test func settingANewKeyAppendsIt() {
    var object: JSONObject = ["a": 1]
    object["z"] = 2
    #expect(object.keys == ["a", "z"])
}

@Test func settingNilRemovesTheKeyWhileNullIsStored() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = nil
    #expect(object.keys == ["a", "c"])
    object["a"] = .null
    #expect(object.keys == ["a", "c"])
    #expect(object["a"] == .null)
    object["missing"] = nil
    #expect(object.count == 2)
}

@Test func iterationFollowsInsertionOrder() {
    let object: JSONObject = ["c": 1, "a": 2, "b": 3]
    var seen: [String] = []
    var values: [JSONValue] = []
    for (key, value) in object {
        seen.append(key)
        values.append(value)
    }
    #expect(seen == ["c", "a", "b"])
    #expect(values == [1, 2, 3])
    #expect(object.map(\.key) == ["c", "a", "b"])
    #expect(JSONObject().isEmpty)
}

@Test func equalityAndHashingIncludeKeyOrder() {
    let ab: JSONObject = ["a": 1, "b": 2]
    let ab2 = JSONObject([("a", 1), ("b", 2)])
    let ba: JSONObject = ["b": 2, "a": 1]
    #expect(ab == ab2)
    #expect(ab.hashValue == ab2.hashValue)
    #expect(ab != ba)
    #expect(JSONValue.object(ab) != JSONValue.object(ba))
}

@Test func largeObjectsBehaveLikeSmallOnesUnderRandomEdits() {
    // Objects above the index threshold look keys up through a hash index; check every
    // operation against a simple model.
    var generator = SplitMix64(seed: 42)
    var object = JSONObject()
    var model: [(String, JSONValue)] = []
    for step in 0..<4000 {
        let key = "k\(generator.next() % 60)"
        let modelPosition = model.firstIndex { $0.0 == key }
        switch generator.next() % 4 {
        case 0:
            object[key] = nil
            if let modelPosition { model.remove(at: modelPosition) }
        default:
            let value = JSONValue.int(Int64(step))
            object[key] = value
            if let modelPosition { model[modelPosition].1 = value } else { model.append((key, value)) }
        }
        #expect(object.keys == model.map(\.0))
        #expect(object[key] == model.first { $0.0 == key }?.1)
    }
    for (key, value) in model { #expect(object[key] == value) }
    #expect(object == JSONObject(model))
}

