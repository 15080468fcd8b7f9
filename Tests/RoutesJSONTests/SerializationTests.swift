import RoutesJSON
import Testing

@Test func slashesAreNotEscaped() {
    #expect(JSON.serialize(["uri": "file:///a/b.routes"]) == #"{"uri":"file:///a/b.routes"}"#)
    #expect(JSON.serialize("</script>", pretty: true) == #""</script>""#)
}

@Test func keysAreWrittenInInsertionOrder() {
    var object = JSONObject()
    object["zeta"] = 1
    object["alpha"] = 2
    object["mid"] = 3
    object["alpha"] = 4  // replaced in place
    #expect(JSON.serialize(.object(object)) == #"{"zeta":1,"alpha":4,"mid":3}"#)
    let literal: JSONValue = ["b": 1, "a": 2, "c": 3]
    #expect(JSON.serialize(literal) == #"{"b":1,"a":2,"c":3}"#)
}

@Test func nonASCIIIsWrittenAsUTF8NotEscaped() {
    #expect(JSON.serialize("é中😀𝄞") == "\"é中😀𝄞\"")
    #expect(JSON.serialize(["ключ": "значение"]) == #"{"ключ":"значение"}"#)
}

@Test func quotesBackslashesAndControlCharactersAreEscaped() {
    let text = "q\" b\\ n\n t\t r\r bs\u{8} ff\u{C} one\u{1} us\u{1F} nul\u{0} del\u{7F}"
    #expect(JSON.serialize(.string(text))
        == #""q\" b\\ n\n t\t r\r bs\b ff\f one\u0001 us\u001f nul\u0000 del"# + "\u{7F}\"")
}

@Test func controlCharactersInKeysAreEscaped() {
    #expect(JSON.serialize(["a\"b\n": 1]) == #"{"a\"b\n":1}"#)
}

@Test func aNULInAKeyIsWrittenAsTheReplacementCharacter() {
    // json-c keys are C strings: the key would otherwise be cut at the NUL.
    #expect(JSON.serialize(["a\u{0}b": 1, "c": 2]) == "{\"a\u{FFFD}b\":1,\"c\":2}")
    // If that makes two keys equal, the key is written once, at its first position, with the last value.
    #expect(JSON.serialize(["a\u{0}": 1, "b": 2, "a\u{FFFD}": 3]) == "{\"a\u{FFFD}\":3,\"b\":2}")
    #expect(JSON.serialize(["a\u{FFFD}": 1, "b": 2, "a\u{0}": 3]) == "{\"a\u{FFFD}\":3,\"b\":2}")
}

@Test func scalarsSerializeAtTheTopLevel() {
    #expect(JSON.serialize(.null) == "null")
    #expect(JSON.serialize(true) == "true")
    #expect(JSON.serialize(false) == "false")
    #expect(JSON.serialize(12) == "12")
    #expect(JSON.serialize("") == "\"\"")
    #expect(JSON.serialize(.null, pretty: true) == "null")
}

@Test func compactOutputHasNoWhitespace() {
    let value: JSONValue = ["a": [1, 2, ["b": .null]], "c": [:], "d": []]
    #expect(JSON.serialize(value) == #"{"a":[1,2,{"b":null}],"c":{},"d":[]}"#)
}

@Test func prettyOutputIndentsByTwoSpacesAndKeepsEmptyContainersOnOneLine() {
    let value: JSONValue = ["a": [1, ["b": .null]], "c": [:], "d": [], "e": "x"]
    let expected = """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": [],
          "e": "x"
        }
        """
    #expect(JSON.serialize(value, pretty: true) == expected)
    #expect(JSON.serialize([], pretty: true) == "[]")
    #expect(JSON.serialize([:], pretty: true) == "{}")
    #expect(JSON.serialize([[], [[:]]], pretty: true) == "[\n  [],\n  [\n    {}\n  ]\n]")
}

@Test func descriptionIsTheCompactText() {
    let value: JSONValue = ["a": [1, "x/y"]]
    #expect(value.description == #"{"a":[1,"x/y"]}"#)
    #expect(value.objectValue?.description == #"{"a":[1,"x/y"]}"#)
}
