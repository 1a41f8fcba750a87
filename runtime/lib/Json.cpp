//===- Json.cpp - Minimal JSON value, parser and writer ---------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the strict JSON parser and writer declared in Json.h.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Json.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace memopt::runtime;
using namespace memopt::runtime::json;

Value &Value::push(Value v) {
  items.push_back(std::move(v));
  return items.back();
}

const Value *Value::find(const std::string &key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (size_t i = 0, e = keys.size(); i != e; ++i)
    if (keys[i] == key)
      return &items[i];
  return nullptr;
}

Value &Value::set(const std::string &key, Value v) {
  for (size_t i = 0, e = keys.size(); i != e; ++i) {
    if (keys[i] == key) {
      items[i] = std::move(v);
      return items[i];
    }
  }
  keys.push_back(key);
  items.push_back(std::move(v));
  return items.back();
}

const char *json::kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "bool";
  case Value::Kind::Number:
    return "number";
  case Value::Kind::String:
    return "string";
  case Value::Kind::Array:
    return "array";
  case Value::Kind::Object:
    return "object";
  }
  return "?";
}

namespace {
/// Recursive-descent parser with an explicit depth limit so that hostile
/// input cannot overflow the stack.
class Parser {
public:
  Parser(const std::string &text, const std::string &sourceName)
      : text(text), sourceName(sourceName) {}

  Expected<Value> parseDocument() {
    skipSpace();
    Value v;
    if (!parseValue(v, 0))
      return makeError(ErrorKind::Manifest, message);
    skipSpace();
    if (pos != text.size()) {
      fail("unexpected trailing characters after the JSON value");
      return makeError(ErrorKind::Manifest, message);
    }
    return v;
  }

private:
  static constexpr int kMaxDepth = 256;
  const std::string &text;
  const std::string &sourceName;
  size_t pos = 0;
  std::string message;

  bool fail(const std::string &what) {
    if (!message.empty())
      return false;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    message = sourceName + ":" + std::to_string(line) + ":" +
              std::to_string(col) + ": " + what;
    return false;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consumeLiteral(const char *lit) {
    size_t n = std::char_traits<char>::length(lit);
    if (text.compare(pos, n, lit) != 0)
      return fail(std::string("invalid literal, expected '") + lit + "'");
    pos += n;
    return true;
  }

  bool parseValue(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than 256 levels");
    if (pos >= text.size())
      return fail("unexpected end of input, expected a value");
    char c = text[pos];
    switch (c) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"': {
      std::string s;
      if (!parseString(s))
        return false;
      out = Value(std::move(s));
      return true;
    }
    case 't':
      out = Value(true);
      return consumeLiteral("true");
    case 'f':
      out = Value(false);
      return consumeLiteral("false");
    case 'n':
      out = Value();
      return consumeLiteral("null");
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber(out);
      return fail(std::string("unexpected character '") + c + "'");
    }
  }

  bool parseObject(Value &out, int depth) {
    out = Value::object();
    ++pos; // '{'
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string member name");
      std::string key;
      if (!parseString(key))
        return false;
      if (out.find(key))
        return fail("duplicate member '" + key + "'");
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after member name");
      ++pos;
      skipSpace();
      Value member;
      if (!parseValue(member, depth + 1))
        return false;
      out.set(key, std::move(member));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object");
    }
  }

  bool parseArray(Value &out, int depth) {
    out = Value::array();
    ++pos; // '['
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      Value element;
      if (!parseValue(element, depth + 1))
        return false;
      out.push(std::move(element));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array");
    }
  }

  static void appendUtf8(std::string &s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(uint32_t &out) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      out <<= 4;
      if (c >= '0' && c <= '9')
        out |= c - '0';
      else if (c >= 'a' && c <= 'f')
        out |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        out |= c - 'A' + 10;
      else
        return fail("invalid hex digit in \\u escape");
    }
    return true;
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= text.size())
        return fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp = 0;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t lo = 0;
          if (pos + 2 > text.size() || text[pos] != '\\' ||
              text[pos + 1] != 'u')
            return fail("unpaired high surrogate in \\u escape");
          pos += 2;
          if (!parseHex4(lo))
            return false;
          if (lo < 0xDC00 || lo > 0xDFFF)
            return fail("invalid low surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired low surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        return fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool parseNumber(Value &out) {
    size_t start = pos;
    bool integral = true;
    if (text[pos] == '-')
      ++pos;
    if (pos >= text.size() || !isdigit(static_cast<unsigned char>(text[pos])))
      return fail("invalid number");
    if (text[pos] == '0') {
      ++pos;
      if (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        return fail("leading zeros are not allowed in numbers");
    } else {
      while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
    }
    if (pos < text.size() && text[pos] == '.') {
      integral = false;
      ++pos;
      if (pos >= text.size() || !isdigit(static_cast<unsigned char>(text[pos])))
        return fail("expected digits after '.'");
      while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      integral = false;
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (pos >= text.size() || !isdigit(static_cast<unsigned char>(text[pos])))
        return fail("expected digits in exponent");
      while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
    }
    std::string literal = text.substr(start, pos - start);
    if (integral) {
      errno = 0;
      char *end = nullptr;
      long long v = std::strtoll(literal.c_str(), &end, 10);
      if (errno == 0 && end && *end == '\0') {
        out = Value(static_cast<int64_t>(v));
        return true;
      }
      // Out of int64 range: keep it as a double.
    }
    out = Value(std::strtod(literal.c_str(), nullptr));
    return true;
  }
};
} // namespace

Expected<Value> json::parse(const std::string &text,
                            const std::string &sourceName) {
  Parser parser(text, sourceName);
  return parser.parseDocument();
}

static void writeString(std::string &out, const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

static void writeNumber(std::string &out, const Value &v) {
  if (v.isInt()) {
    out += std::to_string(v.getInt());
    return;
  }
  double d = v.getNumber();
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  // 15 significant digits when they round-trip, else the full 17.
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", d);
  if (std::strtod(buf, nullptr) != d)
    std::snprintf(buf, sizeof(buf), "%.17g", d);
  std::string s = buf;
  // Keep it a JSON number that reads back as a non-integer where it was one.
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  out += s;
}

static void writeValue(std::string &out, const Value &v, int indent,
                       int level) {
  auto newline = [&](int lvl) {
    if (indent < 0)
      return;
    out += '\n';
    out.append(static_cast<size_t>(indent * lvl), ' ');
  };
  switch (v.getKind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += v.getBool() ? "true" : "false";
    return;
  case Value::Kind::Number:
    writeNumber(out, v);
    return;
  case Value::Kind::String:
    writeString(out, v.getString());
    return;
  case Value::Kind::Array: {
    if (v.size() == 0) {
      out += "[]";
      return;
    }
    // Arrays of scalars stay on one line: grids, shapes, short lists.
    bool flat = true;
    for (size_t i = 0; i < v.size(); ++i)
      if (v.at(i).isArray() || v.at(i).isObject())
        flat = false;
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i)
        out += flat || indent < 0 ? ", " : ",";
      if (!flat)
        newline(level + 1);
      writeValue(out, v.at(i), indent, level + 1);
    }
    if (!flat)
      newline(level);
    out += ']';
    return;
  }
  case Value::Kind::Object: {
    if (v.size() == 0) {
      out += "{}";
      return;
    }
    out += '{';
    const auto &keys = v.memberKeys();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i)
        out += indent < 0 ? ", " : ",";
      newline(level + 1);
      writeString(out, keys[i]);
      out += ": ";
      writeValue(out, v.memberAt(i), indent, level + 1);
    }
    newline(level);
    out += '}';
    return;
  }
  }
}

std::string json::write(const Value &value, int indent) {
  std::string out;
  writeValue(out, value, indent, 0);
  if (indent >= 0)
    out += '\n';
  return out;
}
