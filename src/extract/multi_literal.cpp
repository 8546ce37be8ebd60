#include "extract/multi_literal.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace aerun {

namespace {

// How often a byte turns up in log text, roughly: spaces and lower-case letters most, punctuation
// and upper-case letters less, control and non-ASCII bytes hardly.
double byte_weight(unsigned c) {
  if (c == ' ') return 6;
  if (c >= 'a' && c <= 'z') return 3;
  if (c >= '0' && c <= '9') return 2;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c > 0x20 && c < 0x7F) return 0.5;
  return 0.01;
}

// The 4-byte windows a Teddy bucket lets through: per window byte, the low and high nibbles seen.
struct BucketShape {
  std::array<uint16_t, Teddy::kWindow> lo{}, hi{};

  void add(const std::string& lit) {
    for (size_t j = 0; j < Teddy::kWindow; ++j) {
      const auto c = static_cast<unsigned char>(lit[j]);
      lo[j] = static_cast<uint16_t>(lo[j] | 1u << (c & 15));
      hi[j] = static_cast<uint16_t>(hi[j] | 1u << (c >> 4));
    }
  }
  void add(const BucketShape& o) {
    for (size_t j = 0; j < Teddy::kWindow; ++j) {
      lo[j] = static_cast<uint16_t>(lo[j] | o.lo[j]);
      hi[j] = static_cast<uint16_t>(hi[j] | o.hi[j]);
    }
  }
  // The weight of the windows accepted: how often text passes the bucket, up to a factor. Only
  // the bytes the nibbles let through are visited, in increasing order (the sum is the same as
  // over all 256): the bucket merging of build_teddy() asks this ~1.5 G^2 times for G prefixes.
  double cost() const {
    double product = 1;
    for (size_t j = 0; j < Teddy::kWindow; ++j) {
      double w = 0;
      for (unsigned h = hi[j]; h; h &= h - 1)
        for (unsigned l = lo[j]; l; l &= l - 1)
          w += byte_weight(static_cast<unsigned>(std::countr_zero(h)) << 4 |
                           static_cast<unsigned>(std::countr_zero(l)));
      product *= w;
    }
    return product;
  }
};

}  // namespace

MultiLiteral::MultiLiteral(std::vector<std::string> literals, Engine engine)
    : literals_(std::move(literals)) {
  if (literals_.empty()) return;
  for (const auto& l : literals_) {
    if (l.size() < 4) throw std::invalid_argument("MultiLiteral: literals need 4 bytes or more");
    uint32_t head;
    std::memcpy(&head, l.data(), 4);
    heads_.push_back(head);
  }
  if (engine != Engine::Portable && Teddy::available())
    build_teddy(engine == Engine::Avx2 ? Teddy::Width::Avx2 : Teddy::Width::Avx512);
  else
    build_wu_manber();
}

// Groups the literals into Teddy's 16 buckets: starting from one group per distinct 4-byte
// prefix, merges the two groups whose union adds the least cost until 16 are left.
void MultiLiteral::build_teddy(Teddy::Width width) {
  std::vector<std::vector<uint32_t>> groups;
  std::vector<BucketShape> shapes;
  for (uint32_t id = 0; id < literals_.size(); ++id) {
    const auto same_prefix = [&](const std::vector<uint32_t>& g) {
      return heads_[g.front()] == heads_[id];
    };
    const auto it = std::find_if(groups.begin(), groups.end(), same_prefix);
    if (it != groups.end()) {
      it->push_back(id);
      continue;
    }
    groups.push_back({id});
    shapes.emplace_back();
    shapes.back().add(literals_[id]);
  }
  std::vector<double> costs;
  for (const auto& s : shapes) costs.push_back(s.cost());
  const auto merged_cost = [&](size_t a, size_t b) {
    BucketShape u = shapes[a];
    u.add(shapes[b]);
    return u.cost() - costs[a] - costs[b];
  };
  // added[a][b] (a < b): the cost merging groups a and b adds.
  std::vector<std::vector<double>> added(groups.size(), std::vector<double>(groups.size()));
  for (size_t a = 0; a < groups.size(); ++a)
    for (size_t b = a + 1; b < groups.size(); ++b) added[a][b] = merged_cost(a, b);
  while (groups.size() > Teddy::kBuckets) {
    size_t best_a = 0, best_b = 1;
    for (size_t a = 0; a < groups.size(); ++a)
      for (size_t b = a + 1; b < groups.size(); ++b)
        if (added[a][b] < added[best_a][best_b]) {
          best_a = a;
          best_b = b;
        }
    shapes[best_a].add(shapes[best_b]);
    costs[best_a] = shapes[best_a].cost();
    groups[best_a].insert(groups[best_a].end(), groups[best_b].begin(), groups[best_b].end());
    const auto gone = static_cast<std::ptrdiff_t>(best_b);
    groups.erase(groups.begin() + gone);
    shapes.erase(shapes.begin() + gone);
    costs.erase(costs.begin() + gone);
    added.erase(added.begin() + gone);
    for (auto& row : added) row.erase(row.begin() + gone);
    for (size_t x = 0; x < groups.size(); ++x)
      if (x != best_a)
        added[std::min(x, best_a)][std::max(x, best_a)] =
            merged_cost(std::min(x, best_a), std::max(x, best_a));
  }
  std::vector<uint8_t> bucket_of(literals_.size());
  for (size_t b = 0; b < groups.size(); ++b)
    for (const uint32_t id : groups[b]) bucket_of[id] = static_cast<uint8_t>(b);
  teddy_.emplace(literals_, bucket_of, width);
  std::vector<std::vector<uint32_t>> slots(size_t{1} << kHeadBits);
  for (uint32_t id = 0; id < literals_.size(); ++id) slots[head_hash(heads_[id])].push_back(id);
  slot_begin_.assign(slots.size() + 1, 0);
  for (size_t h = 0; h < slots.size(); ++h) {
    slot_begin_[h + 1] = slot_begin_[h] + static_cast<uint32_t>(slots[h].size());
    slot_.insert(slot_.end(), slots[h].begin(), slots[h].end());
  }
}

void MultiLiteral::build_wu_manber() {
  m_ = literals_.front().size();
  for (const auto& l : literals_) m_ = std::min(m_, l.size());
  const size_t size = size_t{1} << kBits;
  const size_t max_shift = std::min<size_t>(m_ - 1, 255);
  shift_.assign(size, static_cast<uint8_t>(max_shift));
  std::vector<std::vector<uint32_t>> buckets(size);
  for (size_t id = 0; id < literals_.size(); ++id) {
    const auto* p = reinterpret_cast<const unsigned char*>(literals_[id].data());
    for (size_t j = 1; j < m_; ++j) {  // bigram p[j-1..j] ends the window m-1-j bytes early
      const unsigned h = hash(p[j - 1], p[j]);
      shift_[h] = static_cast<uint8_t>(std::min<size_t>(shift_[h], m_ - 1 - j));
    }
    buckets[hash(p[m_ - 2], p[m_ - 1])].push_back(static_cast<uint32_t>(id));
  }
  bucket_begin_.assign(size + 1, 0);
  for (size_t h = 0; h < size; ++h) {
    bucket_begin_[h + 1] = bucket_begin_[h] + static_cast<uint32_t>(buckets[h].size());
    bucket_.insert(bucket_.end(), buckets[h].begin(), buckets[h].end());
  }
}

}  // namespace aerun
