// Models (tokenizers/src/models/{bpe,wordpiece,wordlevel}) and their vocabulary.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <queue>

#include "engine/errors.h"
#include "engine/text/hf/components.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

// ---- Vocab ------------------------------------------------------------------------------

std::uint64_t hash_bytes(std::string_view s) {
    const char* p = s.data();
    std::size_t n = s.size();
    std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ (n * 0xC2B2AE3D27D4EB4FULL);
    while (n >= 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        h = (h ^ v) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    std::uint64_t v = 0;
    std::memcpy(&v, p, n);
    h = (h ^ v) * 0x94D049BB133111EBULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

void Vocab::reserve(std::size_t n, std::size_t bytes) {
    entries_.reserve(n);
    grow(n);
    if (arenas_.empty()) {
        arenas_.push_back(std::make_unique<std::string>());
        arenas_.back()->reserve(bytes + 64);
    }
}

void Vocab::grow(std::size_t n) {
    std::size_t capacity = 16;
    while (capacity < 2 * n)  // at most half full
        capacity *= 2;
    if (capacity <= slots_.size()) return;
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
        std::size_t i = entries_[e].hash & mask_;
        while (slots_[i] != 0)
            i = (i + 1) & mask_;
        slots_[i] = static_cast<std::uint32_t>(e + 1);
    }
}

std::string_view Vocab::store(std::string_view s) {
    if (arenas_.empty() || arenas_.back()->capacity() - arenas_.back()->size() < s.size()) {
        arenas_.push_back(std::make_unique<std::string>());
        arenas_.back()->reserve(std::max<std::size_t>(s.size(), 1 << 20));
    }
    std::string& a = *arenas_.back();
    const std::size_t at = a.size();
    a.append(s);  // within capacity: earlier views stay valid
    return std::string_view(a.data() + at, s.size());
}

bool Vocab::add(std::string_view token, std::uint32_t id, bool replace, std::uint64_t h) {
    if (2 * (entries_.size() + 1) > slots_.size()) grow(entries_.size() + 1);
    std::size_t i = h & mask_;
    for (; slots_[i] != 0; i = (i + 1) & mask_) {
        Entry& e = entries_[slots_[i] - 1];
        if (e.hash == h && e.token == token) {
            if (replace) e.id = id;
            return false;
        }
    }
    entries_.push_back({store(token), h, id});
    slots_[i] = static_cast<std::uint32_t>(entries_.size());
    return true;
}

void Vocab::finish() {
    std::uint64_t limit = 0;
    for (const Entry& e : entries_)
        limit = std::max<std::uint64_t>(limit, std::uint64_t(e.id) + 1);
    id_limit_ = limit;
    dense_.clear();
    sparse_.clear();
    // Ids are normally 0..n-1; a file with a few huge ids must not make us allocate for all
    // the ids in between.  With repeated ids (vocab.txt lines replaced), the first entry wins.
    if (limit <= 4 * std::uint64_t(entries_.size()) + 1024) {
        dense_.assign(limit, std::string_view{});
        for (const Entry& e : entries_)
            if (dense_[e.id].data() == nullptr) dense_[e.id] = e.token;
        return;
    }
    sparse_.reserve(entries_.size());
    for (const Entry& e : entries_)
        sparse_.emplace(e.id, e.token);
}

// ---- MergeMap ---------------------------------------------------------------------------

void MergeMap::reserve(std::size_t n) {
    grow(n);
}

void MergeMap::grow(std::size_t n) {
    std::size_t capacity = 16;
    while (capacity < 2 * n)
        capacity *= 2;
    if (capacity <= slots_.size()) return;
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (const Slot& s : old) {
        if (s.rank == kEmpty) continue;
        std::size_t i = mix(s.key) & mask_;
        while (slots_[i].rank != kEmpty)
            i = (i + 1) & mask_;
        slots_[i] = s;
    }
}

bool MergeMap::insert(std::uint32_t a, std::uint32_t b, std::uint32_t rank, std::uint32_t merged,
                      bool overwrite) {
    if (2 * (size_ + 1) > slots_.size()) grow(size_ + 1);
    const std::uint64_t key = (std::uint64_t(a) << 32) | b;
    std::size_t i = mix(key) & mask_;
    if (rank == kEmpty) return false;  // cannot be stored; no real file gets here
    for (; slots_[i].rank != kEmpty; i = (i + 1) & mask_) {
        if (slots_[i].key == key) {
            if (overwrite) {
                slots_[i].rank = rank;
                slots_[i].merged = merged;
            }
            return false;
        }
    }
    slots_[i] = Slot{key, rank, merged};
    ++size_;
    return true;
}

bool Vocab::has_id(std::uint32_t id) const {
    if (sparse_.empty()) return id < dense_.size() && dense_[id].data() != nullptr;
    return sparse_.count(id) != 0;
}

std::string_view Vocab::token(std::uint32_t id) const {
    if (sparse_.empty()) return id < dense_.size() ? dense_[id] : std::string_view{};
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? std::string_view{} : it->second;
}

// ---- WordPiece --------------------------------------------------------------------------

void WordPieceModel::tokenize(std::string_view word, std::vector<ModelToken>& out) const {
    const auto unk = [&]() {
        const auto id = vocab_.find(unk_token);
        if (!id)
            throw DataError(name + ": WordPiece needs its unk_token " + unk_token +
                            ", which is not in the vocabulary");
        out.push_back({*id, 0, word.size()});
    };
    if (uni::count_chars(word) > max_input_chars_per_word) return unk();
    const std::size_t first = out.size();
    std::string candidate;
    std::size_t start = 0;
    while (start < word.size()) {
        std::size_t end = word.size();
        bool found = false;
        while (start < end) {
            candidate.clear();
            if (start > 0) candidate += continuing_subword_prefix;
            candidate.append(word.substr(start, end - start));
            if (const auto id = vocab_.find(candidate)) {
                out.push_back({*id, start, end});
                found = true;
                break;
            }
            std::size_t len;
            uni::decode_last(word, end, &len);
            end -= len;
        }
        if (!found) {
            out.resize(first);
            return unk();
        }
        start = end;
    }
}

// ---- WordLevel --------------------------------------------------------------------------

void WordLevelModel::tokenize(std::string_view word, std::vector<ModelToken>& out) const {
    if (const auto id = vocab_.find(word)) {
        out.push_back({*id, 0, word.size()});
    } else if (const auto unk = vocab_.find(unk_token)) {
        out.push_back({*unk, 0, word.size()});
    } else {
        throw DataError(name + ": WordLevel has no token for " + std::string(word) +
                        " and its unk_token " + unk_token + " is not in the vocabulary");
    }
}

// ---- BPE --------------------------------------------------------------------------------

void BpeModel::finish() {
    byte_ids.fill(-1);
    if (!byte_fallback) return;
    char name_buf[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(name_buf, sizeof name_buf, "<0x%02X>", b);
        if (const auto id = vocab_.find(name_buf)) byte_ids[b] = *id;
    }
}

void BpeModel::merge_word(std::string_view w, std::vector<Piece>& out) const {
    struct Symbol {
        std::uint32_t id;
        std::int64_t prev, next;
        std::size_t len;
    };
    std::vector<Symbol> symbols;
    symbols.reserve(w.size());
    const auto add = [&](std::uint32_t id, std::size_t len) {
        const auto n = static_cast<std::int64_t>(symbols.size());
        if (!symbols.empty()) symbols.back().next = n;
        symbols.push_back({id, symbols.empty() ? -1 : n - 1, -1, len});
    };
    const auto unk_id = [&]() {
        const auto id = vocab_.find(*unk_token);
        if (!id)
            throw DataError(name + ": BPE unk_token " + *unk_token + " is not in the vocabulary");
        return *id;
    };
    // A pending unknown piece (GCC 12 warns falsely about std::optional<pair> here).
    bool unk = false;
    std::uint32_t unk_first = 0;
    std::size_t unk_len = 0;
    std::string s;
    for (std::size_t i = 0; i < w.size();) {
        const std::size_t byte_len = uni::utf8_len(static_cast<unsigned char>(w[i]));
        const bool is_first = i == 0, is_last = i + byte_len >= w.size();
        s.clear();
        if (!is_first && continuing_subword_prefix) s += *continuing_subword_prefix;
        s.append(w.substr(i, byte_len));
        if (is_last && end_of_word_suffix) s += *end_of_word_suffix;
        i += byte_len;

        if (const auto id = vocab_.find(s)) {
            if (unk) {
                add(unk_first, unk_len);
                unk = false;
            }
            add(*id, byte_len);
            continue;
        }
        if (byte_fallback) {
            bool all = true;
            for (const char b : s)
                all = all && byte_ids[static_cast<unsigned char>(b)] >= 0;
            if (all) {
                // As tokenizers does: one symbol per byte of the (prefixed) piece, and a
                // pending unk is left pending.
                for (const char b : s)
                    add(static_cast<std::uint32_t>(byte_ids[static_cast<unsigned char>(b)]), 1);
                continue;
            }
        }
        if (unk_token) {
            if (unk && fuse_unk) {
                unk_len += byte_len;
            } else {
                if (unk) add(unk_first, unk_len);
                unk_first = unk_id();
                unk_len = byte_len;
                unk = true;
            }
        }
    }
    if (unk) add(unk_first, unk_len);

    // merge_all: apply the best-ranked merge present, leftmost first, until none applies.
    struct Merge {
        std::uint32_t rank;
        std::size_t pos;
        std::uint32_t new_id;
    };
    const auto later = [](const Merge& a, const Merge& b) {
        return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
    };
    std::priority_queue<Merge, std::vector<Merge>, decltype(later)> queue(later);
    std::uint32_t rank, merged;
    for (std::size_t i = 0; i + 1 < symbols.size(); ++i)
        if (merges.find(symbols[i].id, symbols[i + 1].id, rank, merged))
            queue.push({rank, i, merged});
    while (!queue.empty()) {
        const Merge top = queue.top();
        queue.pop();
        Symbol& cur = symbols[top.pos];
        if (cur.len == 0 || cur.next == -1) continue;
        const auto next_pos = static_cast<std::size_t>(cur.next);
        const Symbol right = symbols[next_pos];
        if (!merges.find(cur.id, right.id, rank, merged) || merged != top.new_id) continue;
        cur.id = top.new_id;
        cur.len += right.len;
        cur.next = right.next;
        symbols[next_pos].len = 0;
        if (right.next > -1 && static_cast<std::size_t>(right.next) < symbols.size())
            symbols[static_cast<std::size_t>(right.next)].prev = static_cast<std::int64_t>(top.pos);
        const Symbol current = symbols[top.pos];
        if (current.prev >= 0) {
            const auto prev = static_cast<std::size_t>(current.prev);
            if (merges.find(symbols[prev].id, current.id, rank, merged))
                queue.push({rank, prev, merged});
        }
        if (current.next >= 0 && static_cast<std::size_t>(current.next) < symbols.size()) {
            if (merges.find(current.id, symbols[static_cast<std::size_t>(current.next)].id, rank,
                            merged))
                queue.push({rank, top.pos, merged});
        }
    }
    out.clear();
    for (const Symbol& sym : symbols)
        if (sym.len != 0) out.push_back({sym.id, static_cast<std::uint32_t>(sym.len)});
}

void BpeModel::tokenize(std::string_view word, std::vector<ModelToken>& out) const {
    if (word.empty()) return;
    if (ignore_merges) {
        if (const auto id = vocab_.find(word)) {
            out.push_back({*id, 0, word.size()});
            return;
        }
    }
    constexpr std::size_t kMaxCachedLength = 256, kCacheCapacity = 10000;
    const auto emit = [&](const std::vector<Piece>& pieces) {
        std::size_t pos = 0;
        for (const Piece& p : pieces) {
            out.push_back({p.id, pos, pos + p.len});
            pos += p.len;
        }
    };
    const bool cacheable = word.size() < kMaxCachedLength;
    if (cacheable) {
        std::lock_guard lock(cache_mutex_);
        const auto it = cache_.find(std::string(word));
        if (it != cache_.end()) {
            emit(it->second);
            return;
        }
    }
    std::vector<Piece> pieces;
    merge_word(word, pieces);
    emit(pieces);
    if (cacheable) {
        std::lock_guard lock(cache_mutex_);
        if (cache_.size() < kCacheCapacity) cache_.emplace(std::string(word), std::move(pieces));
    }
}

}  // namespace attnviz::text::hf
