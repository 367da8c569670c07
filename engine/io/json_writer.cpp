#include "engine/io/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

#include "engine/io/json.h"

namespace attnviz::io::json {

namespace {

void append_escaped(std::string& out, unsigned char c) {
    static const char* hex = "0123456789abcdef";
    out += "\\u00";
    out += hex[(c >> 4) & 0xF];
    out += hex[c & 0xF];
}

void append_quoted(std::string& out, std::string_view s) {
    out.reserve(out.size() + s.size() + 2);
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            // Copy a valid sequence whole; an invalid byte becomes U+FFFD.
            std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (i + len <= s.size() && is_valid_utf8(s.substr(i, len)) && c >= 0xC2) {
                out.append(s.substr(i, len));
                i += len;
            } else {
                out += "\xEF\xBF\xBD";
                ++i;
            }
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7F) {
            append_escaped(out, c);
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    out += '"';
}

/// `v` (finite) as `f` says.  std::to_chars with a precision prints exactly what printf does in
/// the "C" locale, whatever locale the program runs in (Qt sets the user's), so a German
/// desktop cannot turn 0.5 into "0,5".
void append_number(std::string& out, double v, Format f) {
    char buf[64];
    std::to_chars_result r{};
    switch (f.style) {
        case Format::Style::Shortest:
            r = std::to_chars(buf, buf + sizeof buf, v);
            break;
        case Format::Style::General:
            r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, f.digits);
            break;
        case Format::Style::Fixed:
            r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, f.digits);
            break;
    }
    if (r.ec == std::errc()) {
        out.append(buf, r.ptr);
        return;
    }
    // Only %f of a large number (1e300 has 301 digits) or a large precision needs more room.
    std::string big(400 + static_cast<std::size_t>(std::max(f.digits, 0)), '\0');
    r = std::to_chars(
        big.data(), big.data() + big.size(), v,
        f.style == Format::Style::Fixed ? std::chars_format::fixed : std::chars_format::general,
        f.digits);
    if (r.ec != std::errc()) throw std::logic_error("json::Writer: cannot format a number");
    out.append(big.data(), r.ptr);
}

}  // namespace

std::string quote(std::string_view s) {
    std::string out;
    append_quoted(out, s);
    return out;
}

void Writer::before_value() {
    if (done_) throw std::logic_error("json::Writer: a value after the document's end");
    if (!open_.empty() && open_.back() == Scope::Object) {
        if (!key_pending_) throw std::logic_error("json::Writer: a value in an object needs a key");
        key_pending_ = false;
        return;  // key() wrote the comma
    }
    if (!first_) out_ += ',';
    first_ = false;
}

void Writer::after_value() {
    if (open_.empty()) done_ = true;
}

Writer& Writer::open(Scope scope) {
    before_value();
    out_ += scope == Scope::Object ? '{' : '[';
    open_.push_back(scope);
    first_ = true;
    return *this;
}

Writer& Writer::close(Scope scope) {
    if (open_.empty() || open_.back() != scope || key_pending_)
        throw std::logic_error(scope == Scope::Object
                                   ? "json::Writer: end_object() without an open object, or "
                                     "after a key"
                                   : "json::Writer: end_array() without an open array");
    out_ += scope == Scope::Object ? '}' : ']';
    open_.pop_back();
    first_ = false;
    after_value();
    return *this;
}

Writer& Writer::begin_object() {
    return open(Scope::Object);
}

Writer& Writer::end_object() {
    return close(Scope::Object);
}

Writer& Writer::begin_array() {
    return open(Scope::Array);
}

Writer& Writer::end_array() {
    return close(Scope::Array);
}

Writer& Writer::key(std::string_view name) {
    if (open_.empty() || open_.back() != Scope::Object || key_pending_)
        throw std::logic_error("json::Writer: key() outside an object, or twice");
    if (!first_) out_ += ',';
    first_ = false;
    append_quoted(out_, name);
    out_ += ':';
    key_pending_ = true;
    return *this;
}

Writer& Writer::value(std::string_view s) {
    before_value();
    append_quoted(out_, s);
    after_value();
    return *this;
}

Writer& Writer::value(bool b) {
    before_value();
    out_ += b ? "true" : "false";
    after_value();
    return *this;
}

Writer& Writer::value(std::nullptr_t) {
    before_value();
    out_ += "null";
    after_value();
    return *this;
}

Writer& Writer::value(double v, Format format) {
    before_value();
    if (std::isfinite(v))
        append_number(out_, v, format);
    else
        out_ += "null";
    after_value();
    return *this;
}

Writer& Writer::value(float v, Format format) {
    if (format.style != Format::Style::Shortest || !std::isfinite(v))
        return value(static_cast<double>(v), format);
    before_value();
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    after_value();
    return *this;
}

Writer& Writer::signed_integer(std::int64_t v) {
    before_value();
    out_ += std::to_string(v);
    after_value();
    return *this;
}

Writer& Writer::unsigned_integer(std::uint64_t v) {
    before_value();
    out_ += std::to_string(v);
    after_value();
    return *this;
}

bool Writer::complete() const {
    return done_;
}

const std::string& Writer::str() const {
    if (!done_) throw std::logic_error("json::Writer: str() before the document is complete");
    return out_;
}

std::string Writer::take() {
    str();
    std::string out = std::move(out_);
    *this = Writer();
    return out;
}

}  // namespace attnviz::io::json
