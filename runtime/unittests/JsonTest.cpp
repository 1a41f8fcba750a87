//===- JsonTest.cpp - Tests for the JSON parser and writer ------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Json.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace memopt::runtime;

namespace {

TEST(JsonTest, ParsesScalarsAndKeepsIntegersExact) {
  Expected<json::Value> v = json::parse(
      R"({"a": 1, "b": -2.5e1, "c": "x\ny\u00e9\ud83d\ude00", "d": [true, false, null],
          "big": 9007199254740993, "huge": 1e400})");
  ASSERT_TRUE(v.succeeded()) << v.error().message;
  EXPECT_TRUE(v->find("a")->isInt());
  EXPECT_EQ(v->find("a")->getInt(), 1);
  EXPECT_FALSE(v->find("b")->isInt());
  EXPECT_DOUBLE_EQ(v->find("b")->getNumber(), -25.0);
  EXPECT_EQ(v->find("c")->getString(), "x\ny\xc3\xa9\xf0\x9f\x98\x80");
  const json::Value *d = v->find("d");
  ASSERT_EQ(d->size(), 3u);
  EXPECT_TRUE(d->at(0).getBool());
  EXPECT_TRUE(d->at(2).isNull());
  // 2^53 + 1 is not representable as a double but must survive as int64.
  EXPECT_EQ(v->find("big")->getInt(), 9007199254740993LL);
  EXPECT_TRUE(std::isinf(v->find("huge")->getNumber()));
  EXPECT_EQ(v->find("missing"), nullptr);
}

TEST(JsonTest, KeepsMemberOrder) {
  Expected<json::Value> v = json::parse(R"({"z": 1, "a": 2, "m": 3})");
  ASSERT_TRUE(v.succeeded());
  ASSERT_EQ(v->memberKeys().size(), 3u);
  EXPECT_EQ(v->memberKeys()[0], "z");
  EXPECT_EQ(v->memberKeys()[2], "m");
}

TEST(JsonTest, ErrorsCarryLineAndColumn) {
  struct Case {
    const char *text;
    const char *expect;
  } cases[] = {
      {"{\"a\": 1,\n \"b\": }", "m.json:2:7: unexpected character '}'"},
      {"[1, 2", "m.json:1:6: expected ',' or ']' in array"},
      {"{\"a\": 01}", "leading zeros"},
      {"{\"a\": 1, \"a\": 2}", "duplicate member 'a'"},
      {"{\"a\": tru}", "invalid literal"},
      {"\"abc", "unterminated string"},
      {"{} x", "trailing characters"},
      {"{'a': 1}", "expected a string member name"},
      {"\"\\ud800\"", "unpaired high surrogate"},
      {"[1.]", "expected digits after '.'"},
      {"", "unexpected end of input"},
  };
  for (const Case &c : cases) {
    Expected<json::Value> v = json::parse(c.text, "m.json");
    ASSERT_TRUE(v.failed()) << c.text;
    EXPECT_NE(v.error().message.find(c.expect), std::string::npos)
        << "input: " << c.text << "\nmessage: " << v.error().message;
    EXPECT_EQ(v.error().kind, ErrorKind::Manifest);
  }
}

TEST(JsonTest, RejectsDeepNesting) {
  std::string deep(1000, '[');
  EXPECT_TRUE(json::parse(deep).failed());
}

TEST(JsonTest, WriteRoundTrips) {
  json::Value obj = json::Value::object();
  obj.set("name", "w1 \"quoted\"\t");
  obj.set("bytes", static_cast<int64_t>(805339136));
  obj.set("gbps", 3912.25);
  obj.set("whole", 2.0);
  obj.set("nan", NAN);
  json::Value arr = json::Value::array();
  arr.push(1);
  arr.push(json::Value::object());
  obj.set("list", arr);
  for (int indent : {-1, 2}) {
    std::string text = json::write(obj, indent);
    Expected<json::Value> back = json::parse(text);
    ASSERT_TRUE(back.succeeded()) << text;
    EXPECT_EQ(back->find("name")->getString(), "w1 \"quoted\"\t");
    EXPECT_EQ(back->find("bytes")->getInt(), 805339136);
    EXPECT_DOUBLE_EQ(back->find("gbps")->getNumber(), 3912.25);
    // A double stays a double even when it is integral.
    EXPECT_FALSE(back->find("whole")->isInt());
    EXPECT_TRUE(back->find("nan")->isNull());
    EXPECT_EQ(back->find("list")->size(), 2u);
  }
}

TEST(JsonTest, SetReplacesExistingMember) {
  json::Value obj = json::Value::object();
  obj.set("a", 1);
  obj.set("a", 2);
  EXPECT_EQ(obj.size(), 1u);
  EXPECT_EQ(obj.find("a")->getInt(), 2);
}

} // namespace
