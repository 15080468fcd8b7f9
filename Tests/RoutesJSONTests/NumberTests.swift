import RoutesJSON
import Testing

@Test func integersWithinInt64AreInts() throws {
    #expect(try JSON.parse("9223372036854775807") == .int(.max))
    #expect(try JSON.parse("-9223372036854775808") == .int(.min))
    #expect(try JSON.parse("[0, -0, 42, -7]") == [.int(0), .int(0), .int(42), .int(-7)])
}

@Test func integersBeyondInt64BecomeDoublesInsteadOfSaturating() throws {
    // json-c alone gives UINT64_MAX / INT64_MAX / INT64_MIN for these, silently.
    #expect(try JSON.parse("18446744073709551616") == .double(18446744073709551616.0))
    #expect(try JSON.parse("9223372036854775808") == .double(9223372036854775808.0))
    #expect(try JSON.parse("18446744073709551615") == .double(18446744073709551615.0))
    #expect(try JSON.parse("-9223372036854775809") == .double(-9223372036854775809.0))
    #expect(try JSON.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
}

@Test func wideIntegersInsideContainersBecomeDoublesAndNeighboursAreUntouched() throws {
    let value = try JSON.parse(#"[1, 18446744073709551616, {"k": -99999999999999999999, "n": 9223372036854775807}, 3]"#)
    #expect(value == [1, .double(18446744073709551616.0), ["k": .double(-1e20), "n": .int(.max)], 3])
}

@Test func errorOffsetsAfterWideIntegersPointIntoTheOriginalText() {
    #expect(parseError("[18446744073709551616, ]") == JSONError(message: "unexpected character", offset: 23))
    #expect(parseError("[18446744073709551616 x]") == JSONError(message: "array value separator ',' expected", offset: 22))
    #expect(parseError("[18446744073709551616,18446744073709551617 1]")?.offset == 43)
    #expect(parseError("[18446744073709551616") == JSONError(message: "unexpected end of data", offset: 21))
    #expect(parseError("[18446744073709551616, 'x']")?.message == "single-quoted strings are not allowed")
}

@Test func doublesParseToTheNearestDouble() throws {
    #expect(try JSON.parse("0.1") == .double(0.1))
    #expect(try JSON.parse("1e300") == .double(1e300))
    #expect(try JSON.parse("2.5E-3") == .double(0.0025))
    #expect(try JSON.parse("1E+2") == .double(100))
    #expect(try JSON.parse("4.9406564584124654e-324") == .double(.leastNonzeroMagnitude))
    #expect(try JSON.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    #expect(try JSON.parse("1.0") == .double(1.0))
}

@Test func negativeZeroDoubleKeepsItsSign() throws {
    let value = try JSON.parse("-0.0")
    #expect(value.doubleValue == 0)
    #expect(value.doubleValue?.sign == .minus)
    #expect(JSON.serialize(value) == "-0.0")
}

@Test func magnitudesBeyondDoubleBecomeInfinityAndUnderflowBecomesZero() throws {
    #expect(try JSON.parse("1e400") == .double(.infinity))
    #expect(try JSON.parse("-1e400") == .double(-.infinity))
    #expect(try JSON.parse("1e-400") == .double(0))
}

@Test func doublesSerializeInShortestRoundTripForm() {
    #expect(JSON.serialize(0.1) == "0.1")
    #expect(JSON.serialize(1e300) == "1e+300")
    #expect(JSON.serialize(2.0) == "2.0")
    #expect(JSON.serialize(.double(0.1 + 0.2)) == "0.30000000000000004")
    #expect(JSON.serialize(.double(.leastNonzeroMagnitude)) == "5e-324")
    #expect(JSON.serialize(1e-5) == "1e-05")
}

@Test(arguments: [0.1, 1e300, -1e-300, 2.0, 0.30000000000000004, 123456789.125, .leastNonzeroMagnitude,
                  .greatestFiniteMagnitude, 1e16, -5.5])
func doublesRoundTripExactlyAndStayDoubles(_ number: Double) throws {
    let parsed = try JSON.parse(JSON.serialize(.double(number)))
    #expect(parsed == .double(number))
}

@Test func nonFiniteDoublesSerializeAsNull() {
    #expect(JSON.serialize(.double(.nan)) == "null")
    #expect(JSON.serialize([.double(.infinity), .double(-.infinity), 1]) == "[null,null,1]")
    #expect(JSON.serialize(["x": .double(.nan)]) == #"{"x":null}"#)
}

@Test func integersSerializeExactly() {
    #expect(JSON.serialize(.int(.max)) == "9223372036854775807")
    #expect(JSON.serialize(.int(.min)) == "-9223372036854775808")
    #expect(JSON.serialize([0, -1]) == "[0,-1]")
}
