#include "extract/multi_literal.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace aerun {

MultiLiteral::MultiLiteral(std::vector<std::string> literals) : literals_(std::move(literals)) {
  if (literals_.empty()) return;
  m_ = literals_.front().size();
  for (const auto& l : literals_) {
    if (l.size() < 4) throw std::invalid_argument("MultiLiteral: literals need 4 bytes or more");
    m_ = std::min(m_, l.size());
  }
  for (const auto& l : literals_) {
    uint32_t head;
    std::memcpy(&head, l.data(), 4);
    heads_.push_back(head);
  }
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
