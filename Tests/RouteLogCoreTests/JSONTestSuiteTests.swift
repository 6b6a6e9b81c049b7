import Foundation
@_spi(Tools) @testable import RouteLogCore
import Testing

/// The JSON parser against the categories of JSONTestSuite (Seriot's parsing tests), written out
/// here: `y_` must be accepted, `n_` refused with a line and column, and each `i_` case that
/// matters has a decision, documented on its test.
@Suite struct JSONTestSuiteTests {
    static let accepted: [(String, String)] = [
        ("y_array_empty", "[]"), ("y_array_arraysWithSpaces", "[[]   ]"), ("y_array_empty-string", "[\"\"]"),
        ("y_array_false", "[false]"), ("y_array_heterogeneous", "[null, 1, \"1\", {}]"), ("y_array_null", "[null]"),
        ("y_array_with_leading_space", " [1]"), ("y_array_with_trailing_space", "[2] "), ("y_array_with_several_null", "[1,null,null,null,2]"),
        ("y_number", "[123e65]"), ("y_number_0e+1", "[0e+1]"), ("y_number_0e1", "[0e1]"), ("y_number_after_space", "[ 4]"),
        ("y_number_double_close_to_zero", "[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]"),
        ("y_number_int_with_exp", "[20e1]"), ("y_number_minus_zero", "[-0]"), ("y_number_negative_int", "[-123]"),
        ("y_number_negative_one", "[-1]"), ("y_number_real_capital_e", "[1E22]"), ("y_number_real_capital_e_neg_exp", "[1E-2]"),
        ("y_number_real_capital_e_pos_exp", "[1E+2]"), ("y_number_real_exponent", "[123e45]"), ("y_number_real_fraction_exponent", "[123.456e78]"),
        ("y_number_real_neg_exp", "[1e-2]"), ("y_number_real_pos_exponent", "[1e+2]"), ("y_number_simple_int", "[123]"), ("y_number_simple_real", "[123.456789]"),
        ("y_object", "{\"asd\":\"sdf\", \"dfg\":\"fgh\"}"), ("y_object_basic", "{\"asd\":\"sdf\"}"), ("y_object_empty", "{}"),
        ("y_object_empty_key", "{\"\":0}"), ("y_object_escaped_null_in_key", "{\"foo\\u0000bar\": 42}"),
        ("y_object_extreme_numbers", "{ \"min\": -1.0e+28, \"max\": 1.0e+28 }"), ("y_object_long_strings", "{\"x\":[{\"id\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}], \"id\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}"),
        ("y_object_simple", "{\"a\":[]}"), ("y_object_string_unicode", "{\"title\":\"\\u041f\\u043e\\u043b\\u0442\\u043e\\u0440\\u0430 \" }"),
        ("y_object_with_newlines", "{\n\"a\": \"b\"\n}"), ("y_string_1_2_3_bytes_UTF-8_sequences", "[\"\\u0060\\u012a\\u12AB\"]"),
        ("y_string_accepted_surrogate_pair", "[\"\\uD801\\udc37\"]"), ("y_string_allowed_escapes", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]"),
        ("y_string_backslash_and_u_escaped_zero", "[\"\\\\u0000\"]"), ("y_string_comments", "[\"a/*b*/c/*d//e\"]"),
        ("y_string_in_array_with_leading_space", "[ \"asd\"]"), ("y_string_nonCharacterInUTF-8_U+FFFF", "[\"\u{FFFF}\"]"),
        ("y_string_utf8", "[\"€𝄞\"]"), ("y_string_unicode_U+10FFFE_nonchar", "[\"\\uDBFF\\uDFFE\"]"), ("y_string_null_escape", "[\"\\u0000\"]"),
        ("y_string_space", "\" \""), ("y_structure_lonely_false", "false"), ("y_structure_lonely_int", "42"), ("y_structure_lonely_negative_real", "-0.1"),
        ("y_structure_lonely_null", "null"), ("y_structure_lonely_string", "\"asd\""), ("y_structure_lonely_true", "true"),
        ("y_structure_trailing_newline", "[\"a\"]\n"), ("y_structure_whitespace_array", " [] "), ("y_structure_true_in_array", "[true]"),
    ]

    static let refused: [(String, String)] = [
        ("n_array_1_true_without_comma", "[1 true]"), ("n_array_comma_after_close", "[\"\"],"), ("n_array_comma_and_number", "[,1]"),
        ("n_array_double_comma", "[1,,2]"), ("n_array_extra_close", "[\"x\"]]"), ("n_array_extra_comma", "[\"\",]"),
        ("n_array_incomplete", "[\"x\""), ("n_array_inner_array_no_comma", "[3[4]]"), ("n_array_just_comma", "[,]"), ("n_array_just_minus", "[-]"),
        ("n_array_missing_value", "[   , \"\"]"), ("n_array_number_and_comma", "[1,]"), ("n_array_star_inside", "[*]"), ("n_array_unclosed", "[\"\""),
        ("n_array_unclosed_with_new_lines", "[1,\n1\n,1"), ("n_incomplete_false", "[fals]"), ("n_incomplete_null", "[nul]"), ("n_incomplete_true", "[tru]"),
        ("n_number_++", "[++1234]"), ("n_number_+1", "[+1]"), ("n_number_-01", "[-01]"), ("n_number_-1.0.", "[-1.0.]"), ("n_number_.-1", "[.-1]"),
        ("n_number_.2e-3", "[.2e-3]"), ("n_number_0.e1", "[0.e1]"), ("n_number_0_capital_E", "[0E]"), ("n_number_1.0e", "[1.0e]"), ("n_number_1.0e+", "[1.0e+]"),
        ("n_number_2.e3", "[2.e3]"), ("n_number_Inf", "[Inf]"), ("n_number_NaN", "[NaN]"), ("n_number_hex_1_digit", "[0x1]"), ("n_number_infinity", "[Infinity]"),
        ("n_number_minus_infinity", "[-Infinity]"), ("n_number_neg_int_starting_with_zero", "[-012]"), ("n_number_with_leading_zero", "[012]"),
        ("n_number_real_without_fractional_part", "[1.]"), ("n_number_starting_with_dot", "[.123]"), ("n_number_with_alpha", "[1.2a-3]"),
        ("n_object_bad_value", "[\"x\", truth]"), ("n_object_comma_instead_of_colon", "{\"x\", null}"), ("n_object_double_colon", "{\"x\"::\"b\"}"),
        ("n_object_missing_colon", "{\"a\" b}"), ("n_object_missing_key", "{:\"b\"}"), ("n_object_missing_value", "{\"a\":"),
        ("n_object_non_string_key", "{1:1}"), ("n_object_single_quote", "{'a':0}"), ("n_object_trailing_comma", "{\"id\":0,}"),
        ("n_object_unquoted_key", "{a: \"b\"}"), ("n_object_with_trailing_garbage", "{\"a\":\"b\"}#"), ("n_object_unterminated-value", "{\"a\":\"a"),
        ("n_single_space", " "), ("n_string_1_surrogate_then_escape", "[\"\\uD800\\\"]"), ("n_string_escape_x", "[\"\\x00\"]"),
        ("n_string_escaped_backslash_bad", "[\"\\\\\\\"]"), ("n_string_escaped_ctrl_char_tab", "[\"\\\t\"]"), ("n_string_incomplete_escape", "[\"\\\"]"),
        ("n_string_incomplete_surrogate_escape_invalid", "[\"\\uD800\\uD800\\x\"]"), ("n_string_invalid_unicode_escape", "[\"\\uqqqq\"]"),
        ("n_string_single_quote", "['single quote']"), ("n_string_unescaped_newline", "[\"new\nline\"]"), ("n_string_unescaped_tab", "[\"\t\"]"),
        ("n_string_no_quotes_with_bad_escape", "[\\n]"), ("n_structure_close_unopened_array", "1]"), ("n_structure_comma_instead_of_closing_brace", "{\"x\": true,"),
        ("n_structure_double_array", "[][]"), ("n_structure_end_array", "]"), ("n_structure_lone-open-bracket", "["), ("n_structure_no_data", ""),
        ("n_structure_open_object", "{"), ("n_structure_trailing_#", "{\"a\":\"b\"}#{}"), ("n_structure_unclosed_array_partial_null", "[ false, nul"),
        ("n_structure_whitespace_formfeed", "[\u{0C}]"), ("n_structure_capitalized_True", "[True]"), ("n_structure_comment", "[1]/*c*/"),
    ]

    @Test(arguments: accepted.map(\.1)) func yCasesAreAccepted(_ text: String) throws {
        let name = Self.accepted.first { $0.1 == text }!.0
        #expect(throws: Never.self, "\(name)") { try JSONValue(parsing: text) }
    }

    @Test func nCasesAreRefusedWithALineAndColumn() {
        for (name, text) in Self.refused {
            do {
                let v = try JSONValue(parsing: text)
                Issue.record("\(name) was accepted as \(v.canonicalText)")
            } catch {
                let lines = text.count(where: { $0 == "\n" }) + 1
                #expect(error.line >= 1 && error.line <= lines && error.column >= 1 && error.column <= text.utf8.count + 1, "\(name): \(error)")
                #expect(!error.description.contains("\n") && error.description.hasPrefix("line \(error.line), column \(error.column): "), "\(name): \(error)")
            }
        }
    }

    @Test func errorsPointAtTheFault() throws {
        func where_(_ text: String) -> (Int, Int)? {
            do { _ = try JSONValue(parsing: text); return nil } catch { return (error.line, error.column) }
        }
        #expect(where_("[1,\n  2,\n  ]") ?? (0, 0) == (3, 3))
        #expect(where_("{\"a\": tru}") ?? (0, 0) == (1, 7))
        #expect(where_("[\"é\", x]") ?? (0, 0) == (1, 7), "columns count characters, not bytes")
    }

    /// Bytes that are not UTF-8 — in a string, a lone continuation byte, an overlong form, an
    /// encoded surrogate, or outside any string — are refused (`i_string_invalid_utf-8`,
    /// `i_string_UTF-8_invalid_sequence`, `i_string_overlong_sequence_2_bytes`, `i_string_UTF8_surrogate_U+D800`).
    @Test func invalidUTF8IsRefused() {
        let cases: [[UInt8]] = [
            [0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D],
            [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xE6, 0x97, 0x22, 0x5D], [0x5B, 0xFF, 0x5D],
            [0x5B, 0x22, 0xF4, 0xBF, 0xBF, 0xBF, 0x22, 0x5D],
        ]
        for bytes in cases {
            #expect(throws: JSONError.self, "\(bytes)") { try JSONValue(parsing: bytes) }
        }
        #expect(throws: Never.self) { try JSONValue(parsing: [0x5B, 0x22, 0xE2, 0x82, 0xAC, 0x22, 0x5D]) }
    }

    /// A `\u` escape of a lone surrogate (`i_string_1st_surrogate_but_2nd_missing`,
    /// `i_string_lone_second_surrogate`, `i_string_invalid_lonely_surrogate`, `i_object_key_lone_2nd_surrogate`)
    /// is refused: a Swift String cannot hold one, and replacing it would change the data.
    @Test func loneSurrogatesAreRefused() {
        for text in [#"["\uD800"]"#, #"["\uDADA"]"#, #"["\uDd1e"]"#, #"["\uD800\n"]"#, #"["\uD800\uD800"]"#, #"{"\uDFAA":0}"#, #"["\uD888\u1234"]"#] {
            do { _ = try JSONValue(parsing: text); Issue.record("accepted \(text)") } catch {
                #expect(error.message.contains("surrogate"), "\(text): \(error)")
            }
        }
    }

    /// Integers beyond Int64 (`i_number_too_big_neg_int`, `i_number_very_big_negative_int`) are read
    /// as the nearest Double; numbers beyond Double (`i_number_huge_exp`, `i_number_pos_double_huge_exp`,
    /// `i_number_real_pos_overflow`) are refused with "number out of range"; underflow
    /// (`i_number_real_underflow`, `i_number_double_huge_neg_exp`) reads as 0.
    @Test func numbersBeyondInt64AndDouble() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(.min))
        #expect(try JSONValue(parsing: "[-123123123123123123123123123123]") == .array([.double(-1.2312312312312312e29)]))
        #expect(try JSONValue(parsing: "100000000000000000000") == .double(1e20))
        for text in ["[0.4e00669999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999969999999006]", "[1.5e+9999]", "[-1e+9999]", "[123123e100000]"] {
            do { _ = try JSONValue(parsing: text); Issue.record("accepted \(text.prefix(20))") } catch {
                #expect(error.message == "number out of range", "\(error)")
            }
        }
        #expect(try JSONValue(parsing: "[123e-10000000]") == .array([.int(0)]))
    }

    /// A UTF-8 byte order mark at the start (`i_structure_UTF-8_BOM_empty_object`) is skipped;
    /// anywhere else (`n_structure_UTF8_BOM_no_data` has nothing after it) it is refused. UTF-16
    /// input (`i_string_utf16BE_no_BOM`, `i_string_UTF-16LE_with_BOM`) is refused as not UTF-8.
    @Test func byteOrderMark() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .object([:]))
        #expect(throws: JSONError.self) { try JSONValue(parsing: [0xEF, 0xBB, 0xBF]) }
        #expect(throws: JSONError.self) { try JSONValue(parsing: [0x5B, 0xEF, 0xBB, 0xBF, 0x5D]) }
        #expect(throws: JSONError.self) { try JSONValue(parsing: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]) }
        #expect(throws: JSONError.self) { try JSONValue(parsing: [0x00, 0x5B, 0x00, 0x5D]) }
    }

    /// Nesting (`n_structure_100000_opening_arrays`, `i_structure_500_nested_arrays`) is limited to
    /// ``JSONValue/maxDepth`` levels: deeper is an error, never a stack overflow.
    @Test func nestingDepthIsLimited() throws {
        let ok = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: ok) }
        for text in [String(repeating: "[", count: JSONValue.maxDepth + 1) + String(repeating: "]", count: JSONValue.maxDepth + 1),
                     String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 100_000)] {
            do { _ = try JSONValue(parsing: text); Issue.record("accepted deep nesting") } catch {
                #expect(error.description == "line 1, column \(error.column): nesting deeper than 1000 levels")
                #expect(error.column == 1 + JSONValue.maxDepth * (text.hasPrefix("{") ? 5 : 1))
            }
        }
    }

    /// Duplicate keys (`y_object_duplicated_key`, `y_object_duplicated_key_and_value`: accepted by RFC 8259,
    /// but their meaning is undefined) are refused, at the second key: a fixture that says two things is a mistake.
    @Test func duplicateKeysAreRefused() {
        for text in [#"{"a":"b","a":"c"}"#, #"{"a":"b","a":"b"}"#, "{\"a\":1,\n \"a\":1}"] {
            do { _ = try JSONValue(parsing: text); Issue.record("accepted \(text)") } catch {
                #expect(error.message == "duplicate key \"a\"", "\(error)")
                #expect(error.column == (text.contains("\n") ? 2 : 10), "\(error)")
            }
        }
    }

    /// One string may hold at most ``JSONValue/maxStringBytes`` bytes as written.
    @Test func stringLengthIsLimited() throws {
        let max = JSONValue.maxStringBytes
        #expect(try JSONValue(parsing: "\"" + String(repeating: "a", count: max) + "\"").stringValue?.utf8.count == max)
        do {
            _ = try JSONValue(parsing: "[\"" + String(repeating: "a", count: max + 1) + "\"]")
            Issue.record("accepted a string over the limit")
        } catch {
            #expect(error.description == "line 1, column 2: string longer than 1048576 bytes")
        }
    }

    /// Control characters and non-ASCII bytes in errors are named, so an error stays one printable line.
    @Test func errorsNameBadBytes() {
        for (bytes, expected) in [([0x5B, 0x0A, 0x01, 0x5D], "unexpected byte 0x01, expected a value"),
                                  ([0x5B, 0x22, 0x5C, 0x0A, 0x22, 0x5D], "invalid escape: '\\' followed by byte 0x0A"),
                                  ([0x5B, 0x22, 0x5C, 0x71, 0x22, 0x5D], "invalid escape '\\q'"),
                                  ([0x5B, 0xC3, 0xA9, 0x5D], "unexpected byte 0xC3, expected a value")] as [([UInt8], String)] {
            do { _ = try JSONValue(parsing: bytes); Issue.record("accepted \(bytes)") } catch {
                #expect(error.message == expected)
            }
        }
    }
}

/// Limits on fixture and export files.
@Suite struct FixtureLimitTests {
    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-huge-\(UUID().uuidString).json").path
        // A sparse file: no disk space used, and the reader must not read it.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(Fixture.maxFileBytes) + 1)
        try handle.close()
        do {
            _ = try Fixture(contentsOf: path)
            Issue.record("read a file over the limit")
        } catch {
            #expect(error.description == "\(path): cannot read the file: the file is larger than 1073741824 bytes, the most a fixture may hold")
        }
    }

    @Test func theNumberOfEventsIsLimited() throws {
        #expect(throws: Never.self) { try Fixture.checkEventCount(Fixture.maxEvents) }
        do {
            try Fixture.checkEventCount(Fixture.maxEvents + 1)
            Issue.record("accepted too many events")
        } catch {
            #expect(error.description == "events: 10000001 events, more than the 10000000 a file may hold")
        }
    }
}
