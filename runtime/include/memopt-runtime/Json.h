//===- Json.h - Minimal JSON value, parser and writer -----------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares a small, dependency-free JSON library: a Value tree that
// keeps object member order, a strict RFC 8259 parser with line:column error
// messages, and a pretty-printing writer. Integers that fit in int64 are kept
// exactly, which matters for byte counts beyond 2^53.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_JSON_H
#define MEMOPT_RUNTIME_JSON_H

#include "memopt-runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memopt::runtime::json {

/// One JSON value. Objects keep insertion order; lookup is linear, which is
/// fine for manifests with tens of members.
class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : kind(Kind::Bool), boolValue(b) {}
  Value(int v) : Value(static_cast<int64_t>(v)) {}
  Value(int64_t v)
      : kind(Kind::Number), isInteger(true), intValue(v),
        numberValue(static_cast<double>(v)) {}
  Value(uint64_t v) : Value(static_cast<int64_t>(v)) {}
  Value(double v) : kind(Kind::Number), numberValue(v) {}
  Value(const char *s) : kind(Kind::String), stringValue(s) {}
  Value(std::string s) : kind(Kind::String), stringValue(std::move(s)) {}

  static Value array() {
    Value v;
    v.kind = Kind::Array;
    return v;
  }
  static Value object() {
    Value v;
    v.kind = Kind::Object;
    return v;
  }

  Kind getKind() const { return kind; }
  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  /// True for numbers written without fraction or exponent that fit int64.
  bool isInt() const { return kind == Kind::Number && isInteger; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  bool getBool() const { return boolValue; }
  int64_t getInt() const { return intValue; }
  double getNumber() const { return numberValue; }
  const std::string &getString() const { return stringValue; }

  /// Array access. Preconditions: isArray(), index in range for at().
  size_t size() const { return kind == Kind::Object ? keys.size() : items.size(); }
  const Value &at(size_t index) const { return items[index]; }
  Value &push(Value v);

  /// Object access: returns nullptr if the member is absent (or not object).
  const Value *find(const std::string &key) const;
  /// Sets (or replaces) a member. Precondition: isObject().
  Value &set(const std::string &key, Value v);
  const std::vector<std::string> &memberKeys() const { return keys; }
  /// Member value by position. Precondition: isObject().
  const Value &memberAt(size_t index) const { return items[index]; }

private:
  Kind kind = Kind::Null;
  bool boolValue = false;
  bool isInteger = false;
  int64_t intValue = 0;
  double numberValue = 0.0;
  std::string stringValue;
  // Array elements, or object member values (parallel to keys).
  std::vector<Value> items;
  std::vector<std::string> keys;
};

/// Returns a short name for a kind ("object", "number", ...), for messages.
const char *kindName(Value::Kind kind);

/// Parses a complete JSON text. On failure the error (kind Manifest) reads
/// "<sourceName>:<line>:<col>: <what>".
Expected<Value> parse(const std::string &text,
                      const std::string &sourceName = "<json>");

/// Serializes a value. indent < 0 writes one line; otherwise pretty prints.
/// Non-finite numbers are written as null (JSON has no NaN/Inf).
std::string write(const Value &value, int indent = 2);

} // namespace memopt::runtime::json

#endif // MEMOPT_RUNTIME_JSON_H
