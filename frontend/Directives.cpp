#include "frontend/Directives.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace f2s {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}
bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Reads the clauses of one directive line. Positions are 0-based offsets in
/// the line; `at` turns them into source locations.
class DirectiveLine {
public:
  DirectiveLine(const std::string &line, const std::string &path, int line_no)
      : text_(line), path_(path), line_no_(line_no) {}

  StencilDirective parse(size_t bang) {
    StencilDirective d;
    d.loc = at(bang);
    pos_ = bang + 5; // past "!$f2s"
    skip_blanks();
    size_t word_at = pos_;
    std::string word = lower(identifier());
    if (word.empty())
      throw UserError(at(word_at), "Expected STENCIL after '!$f2s'");
    if (word != "stencil")
      throw UserError(at(word_at), "'" + word + "' is not a '!$f2s' directive; expected STENCIL");
    parse_clauses(d);
    return d;
  }

private:
  SourceLoc at(size_t offset) const {
    return SourceLoc{path_, line_no_, static_cast<int>(offset) + 1};
  }
  bool done() const { return pos_ >= text_.size() || text_[pos_] == '!'; }
  void skip_blanks() {
    while (pos_ < text_.size() && is_blank(text_[pos_]))
      ++pos_;
  }
  std::string identifier() {
    size_t start = pos_;
    if (pos_ < text_.size() && is_ident_start(text_[pos_]))
      while (pos_ < text_.size() && is_ident_char(text_[pos_]))
        ++pos_;
    return text_.substr(start, pos_ - start);
  }
  std::string rest() const { return text_.substr(pos_, 1); }

  void expect(char c, const std::string &clause) {
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != c)
      throw UserError(at(pos_), std::string("Expected '") + c + "' in the " + clause +
                                    " clause of a '!$f2s stencil' directive");
    ++pos_;
  }

  void parse_clauses(StencilDirective &d) {
    bool seen_name = false, seen_tune = false, seen_timesteps = false;
    while (true) {
      while (pos_ < text_.size() && (is_blank(text_[pos_]) || text_[pos_] == ','))
        ++pos_;
      if (done())
        return;
      size_t clause_at = pos_;
      std::string clause = lower(identifier());
      if (clause.empty())
        throw UserError(at(clause_at), "Unexpected '" + rest() +
                                           "' in a '!$f2s stencil' directive; expected a clause");
      bool &seen = clause == "name"        ? seen_name
                   : clause == "timesteps" ? seen_timesteps
                                           : seen_tune;
      if (clause != "name" && clause != "tune_size" && clause != "timesteps")
        throw UserError(at(clause_at), "Unknown clause '" + clause +
                                           "' in a '!$f2s stencil' directive; expected NAME, "
                                           "TUNE_SIZE or TIMESTEPS");
      if (seen)
        throw UserError(at(clause_at), "The " + upper(clause) +
                                           " clause appears twice in a '!$f2s stencil' directive");
      seen = true;
      if (clause == "timesteps") {
        d.timesteps = true;
        d.timesteps_loc = at(clause_at);
      } else if (clause == "name")
        parse_name(d, clause_at);
      else
        parse_tune_size(d, clause_at);
    }
  }

  static std::string upper(std::string s) {
    for (char &c : s)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
  }

  void parse_name(StencilDirective &d, size_t clause_at) {
    expect('(', "NAME");
    skip_blanks();
    size_t name_at = pos_;
    std::string name = lower(identifier());
    if (name.empty())
      throw UserError(at(name_at), "The NAME clause of a '!$f2s stencil' directive needs an "
                                   "identifier");
    expect(')', "NAME");
    d.name = name;
    d.name_loc = at(clause_at);
  }

  /// `tune_size(n1, n2[, n3][; n1, n2[, n3]]...)`: one size, or several
  /// separated by ';' (a library that dispatches by the call's size).
  void parse_tune_size(StencilDirective &d, size_t clause_at) {
    expect('(', "TUNE_SIZE");
    std::vector<int64_t> size;
    while (true) {
      skip_blanks();
      size_t value_at = pos_;
      size_t end = pos_;
      while (end < text_.size() && is_ident_char(text_[end]))
        ++end;
      std::string digits = text_.substr(pos_, end - pos_);
      bool all_digits = !digits.empty();
      for (char c : digits)
        all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
      errno = 0;
      long long value = all_digits ? std::strtoll(digits.c_str(), nullptr, 10) : 0;
      if (!all_digits || value <= 0 || errno == ERANGE)
        throw UserError(at(value_at), "The TUNE_SIZE clause of a '!$f2s stencil' directive needs "
                                      "positive integers");
      if (size.empty())
        d.tune_sizes_loc.push_back(at(value_at));
      size.push_back(value);
      pos_ = end;
      skip_blanks();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      bool more = pos_ < text_.size() && text_[pos_] == ';';
      if (!more)
        expect(')', "TUNE_SIZE");
      else
        ++pos_;
      add_tune_size(d, std::move(size));
      size.clear();
      if (!more)
        break;
    }
    d.tune_size = d.tune_sizes.front();
    d.tune_size_loc = at(clause_at);
  }

  /// Appends the size just read, refusing one given twice (it would be tuned
  /// twice for one variant) or with another number of values than the first.
  void add_tune_size(StencilDirective &d, std::vector<int64_t> size) {
    const SourceLoc &loc = d.tune_sizes_loc.back();
    for (size_t i = 0; i < d.tune_sizes.size(); ++i) {
      if (d.tune_sizes[i] == size)
        throw UserError(loc, "Size " + std::to_string(d.tune_sizes.size() + 1) +
                                 " of the TUNE_SIZE clause repeats size " + std::to_string(i + 1) +
                                 "; give each size once");
      auto points = [](const std::vector<int64_t> &s) {
        double p = 1;
        for (int64_t e : s)
          p *= static_cast<double>(e);
        return p;
      };
      if (d.tune_sizes[i].size() == size.size() && points(d.tune_sizes[i]) == points(size))
        throw UserError(loc, "Size " + std::to_string(d.tune_sizes.size() + 1) +
                                 " of the TUNE_SIZE clause has as many points as size " +
                                 std::to_string(i + 1) +
                                 ", and the library tells sizes apart by their working set; "
                                 "give one of them another number of points");
      if (d.tune_sizes[i].size() != size.size())
        throw UserError(loc, "Size " + std::to_string(d.tune_sizes.size() + 1) +
                                 " of the TUNE_SIZE clause has " + std::to_string(size.size()) +
                                 " values where size 1 has " +
                                 std::to_string(d.tune_sizes[0].size()) +
                                 "; give every size one value per loop of the nest");
    }
    d.tune_sizes.push_back(std::move(size));
  }

  const std::string &text_;
  const std::string &path_;
  int line_no_;
  size_t pos_ = 0;
};

/// Offset of the sentinel when `line` is a `!$f2s` comment line.
std::optional<size_t> directive_start(const std::string &line, bool fixed_form) {
  size_t i = 0;
  // Fixed form: `c$f2s`, `C$F2S` and `*$f2s` in column 1 are comment lines too.
  bool column1 = fixed_form && !line.empty() &&
                 (line[0] == 'c' || line[0] == 'C' || line[0] == '*') && line.size() >= 5 &&
                 lower(line.substr(1, 4)) == "$f2s";
  if (!column1) {
    while (i < line.size() && is_blank(line[i]))
      ++i;
    if (line.size() < i + 5 || lower(line.substr(i, 5)) != "!$f2s")
      return std::nullopt;
    // Column 6 of a fixed-form line marks a continuation, not a comment.
    if (fixed_form && i == 5)
      return std::nullopt;
  }
  // `!$f2sx` is some other comment.
  if (i + 5 < line.size() && is_ident_char(line[i + 5]))
    return std::nullopt;
  return i;
}

/// Calls `f(line_no, line)` for each line of `text`, without its line end.
template <typename F> void for_each_line(const std::string &text, F f) {
  int line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    start = end + 1;
    if (!f(++line_no, line))
      return;
  }
}

} // namespace

std::vector<Sentinel> find_sentinels(const std::string &text, bool fixed_form) {
  std::vector<Sentinel> out;
  for_each_line(text, [&](int line_no, const std::string &line) {
    if (auto at = directive_start(line, fixed_form))
      out.push_back(Sentinel{line_no, *at});
    return true;
  });
  return out;
}

StencilDirective read_directive(const std::string &text, const Sentinel &at,
                                const std::string &path) {
  std::optional<StencilDirective> d;
  for_each_line(text, [&](int line_no, const std::string &line) {
    if (line_no < at.line)
      return true;
    d = DirectiveLine(line, path, line_no).parse(at.column);
    return false;
  });
  if (!d)
    throw std::logic_error("read_directive: no line " + std::to_string(at.line));
  return *d;
}

std::vector<StencilDirective> find_directives(const std::string &text, const std::string &path,
                                              bool fixed_form) {
  std::vector<StencilDirective> out;
  for_each_line(text, [&](int line_no, const std::string &line) {
    if (auto at = directive_start(line, fixed_form))
      out.push_back(DirectiveLine(line, path, line_no).parse(*at));
    return true;
  });
  return out;
}

} // namespace f2s
