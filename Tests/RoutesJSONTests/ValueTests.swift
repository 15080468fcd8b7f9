import RoutesJSON
import Testing

@Test func literalsBuildTheMatchingCases() {
    let null: JSONValue = nil
    let flag: JSONValue = true
    let int: JSONValue = 3
    let double: JSONValue = 2.5
    let string: JSONValue = "s"
    let array: JSONValue = [1, "a"]
    let object: JSONValue = ["k": 1]
    #expect(null == .null)
    #expect(flag == .bool(true))
    #expect(int == .int(3))
    #expect(double == .double(2.5))
    #expect(string == .string("s"))
    #expect(array == .array([.int(1), .string("a")]))
    #expect(object == .object(JSONObject([("k", .int(1))])))
}

@Test func subscriptsReachIntoObjectsAndArraysOnly() {
    let value: JSONValue = ["list": [10, 20], "obj": ["k": "v"]]
    #expect(value["list"]?[1] == 20)
    #expect(value["obj"]?["k"] == "v")
    #expect(value["missing"] == nil)
    #expect(value["list"]?[2] == nil)
    #expect(value["list"]?[-1] == nil)
    #expect(value[0] == nil)
    #expect(value["list"]?["k"] == nil)
    #expect(JSONValue.string("abc")[0] == nil)
    #expect(JSONValue.string("abc")["a"] == nil)
}

@Test func typedAccessorsReturnValuesOnlyForTheirKinds() {
    let all: [JSONValue] = [.null, .bool(true), .int(2), .double(2.5), .string("s"), .array([1]), .object(["k": 1])]
    #expect(all.map(\.isNull) == [true, false, false, false, false, false, false])
    #expect(all.map(\.boolValue) == [nil, true, nil, nil, nil, nil, nil])
    #expect(all.map(\.intValue) == [nil, nil, 2, nil, nil, nil, nil])
    #expect(all.map(\.doubleValue) == [nil, nil, 2.0, 2.5, nil, nil, nil])
    #expect(all.map(\.stringValue) == [nil, nil, nil, nil, "s", nil, nil])
    #expect(all.map(\.arrayValue) == [nil, nil, nil, nil, nil, [1], nil])
    #expect(all.map(\.objectValue) == [nil, nil, nil, nil, nil, nil, ["k": 1]])
}

@Test func intValueAcceptsIntegralDoublesWithinRangeOnly() {
    #expect(JSONValue.double(2.0).intValue == 2)
    #expect(JSONValue.double(-0.0).intValue == 0)
    #expect(JSONValue.double(2.5).intValue == nil)
    #expect(JSONValue.double(1e19).intValue == nil)
    #expect(JSONValue.double(-9223372036854775808.0).intValue == .min)
    #expect(JSONValue.double(9223372036854775808.0).intValue == nil)
    #expect(JSONValue.double(.nan).intValue == nil)
    #expect(JSONValue.double(.infinity).intValue == nil)
}

@Test func intsAndDoublesAreDistinctValues() {
    #expect(JSONValue.int(1) != JSONValue.double(1))
    #expect(Set<JSONValue>([.int(1), .double(1), .int(1)]).count == 2)
}

@Test func errorsDescribeThemselvesWithTheirOffset() {
    let error = parseError("[1,]")
    #expect(error?.description == "invalid JSON at byte 3: unexpected character")
}
