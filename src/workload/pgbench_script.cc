#include "workload/pgbench_script.h"

#include <cctype>
#include <cstring>

#include "common/file_util.h"

namespace pgstorsim {
namespace {

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) ++b;
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string CollapseSpace(const std::string& s) {
  std::string out;
  for (char c : Trim(s)) {
    if (IsSpace(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Turns SQL text into its prepared and simple forms (see ScriptSql).
ScriptSql CompileSql(const std::string& text, int line, VariableTable* vars) {
  ScriptSql sql;
  sql.line = line;
  sql.text = CollapseSpace(text);
  const std::string& s = sql.text;
  std::string part;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      sql.prepared += "::";
      part += "::";
      ++i;
      continue;
    }
    if (s[i] != ':' || i + 1 >= s.size() || !IsNameStart(s[i + 1])) {
      sql.prepared += s[i];
      part += s[i];
      continue;
    }
    size_t end = i + 1;
    while (end < s.size() && IsNameChar(s[end])) ++end;
    int slot = vars->Slot(s.substr(i + 1, end - i - 1));
    size_t n = 0;
    while (n < sql.param_slots.size() && sql.param_slots[n] != slot) ++n;
    if (n == sql.param_slots.size()) sql.param_slots.push_back(slot);
    sql.prepared += "$" + std::to_string(n + 1);
    sql.parts.push_back(part);
    part.clear();
    sql.part_slots.push_back(slot);
    i = end - 1;
  }
  sql.parts.push_back(part);
  return sql;
}

class ScriptParser {
 public:
  ScriptParser(const std::string& text, const std::string& name, VariableTable* vars)
      : s_(text), vars_(vars) {
    script_.name = name;
  }

  StatusOr<PgbenchScript> Parse() {
    while (error_.empty()) {
      SkipSpaceAndComments();
      if (pos_ >= s_.size()) break;
      if (s_[pos_] == '\\') {
        MetaCommand();
      } else {
        SqlCommand();
      }
    }
    if (error_.empty() && !open_.empty()) {
      Error(script_.commands[open_.back()].line, "\\if without a matching \\endif");
    }
    if (!error_.empty()) return Status::Error(error_);
    return std::move(script_);
  }

 private:
  void Error(int line, const std::string& what) {
    if (error_.empty()) error_ = script_.name + ":" + std::to_string(line) + ": " + what;
  }
  void Advance() {
    if (s_[pos_] == '\n') ++line_;
    ++pos_;
  }
  void SkipSpaceAndComments() {
    while (pos_ < s_.size()) {
      if (IsSpace(s_[pos_])) {
        Advance();
      } else if (s_.compare(pos_, 2, "--") == 0) {
        while (pos_ < s_.size() && s_[pos_] != '\n') Advance();
      } else {
        return;
      }
    }
  }

  // SQL up to a ';' outside quotes and comments, or a backslash (a meta-command after
  // the SQL on the same line), or the end of the text.
  void SqlCommand() {
    int start_line = line_;
    std::string text;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\'' || c == '"') {
        Quoted(c, &text);
      } else if (s_.compare(pos_, 2, "--") == 0) {
        while (pos_ < s_.size() && s_[pos_] != '\n') Advance();
      } else if (s_.compare(pos_, 2, "/*") == 0) {
        size_t end = s_.find("*/", pos_ + 2);
        size_t stop = end == std::string::npos ? s_.size() : end + 2;
        while (pos_ < stop) Advance();
      } else if (c == '\\') {
        break;
      } else if (c == ';') {
        Advance();
        break;
      } else {
        text += c;
        Advance();
      }
    }
    if (Trim(text).empty()) return;
    ScriptCommand cmd;
    cmd.kind = ScriptCommandKind::kSql;
    cmd.line = start_line;
    cmd.sql = static_cast<int>(script_.sql.size());
    script_.sql.push_back(CompileSql(text, start_line, vars_));
    script_.commands.push_back(std::move(cmd));
  }

  void Quoted(char quote, std::string* text) {
    *text += quote;
    Advance();
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      *text += c;
      Advance();
      if (c == quote) {
        if (pos_ < s_.size() && s_[pos_] == quote) {  // '' or "" inside.
          *text += quote;
          Advance();
          continue;
        }
        return;
      }
    }
  }

  void MetaCommand() {
    int line = line_;
    std::string text;
    while (pos_ < s_.size() && s_[pos_] != '\n') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n' && !text.empty()) {
        Advance();
        Advance();
        text += ' ';
        continue;
      }
      text += s_[pos_];
      Advance();
    }
    size_t word_end = 1;
    while (word_end < text.size() && !IsSpace(text[word_end])) ++word_end;
    std::string word = text.substr(1, word_end - 1);
    std::string rest = Trim(text.substr(word_end));
    ScriptCommand cmd;
    cmd.line = line;
    if (word == "set") {
      Set(rest, &cmd);
    } else if (word == "sleep") {
      Sleep(rest, &cmd);
    } else if (word == "if" || word == "elif") {
      Branch(word, rest, &cmd);
    } else if (word == "else" || word == "endif") {
      if (!rest.empty()) Error(line, "\\" + word + " takes no argument");
      Branch(word, rest, &cmd);
    } else {
      Error(line, "unsupported meta-command \\" + word +
                      " (pgstorsim runs \\set, \\sleep, \\if, \\elif, \\else, \\endif)");
      return;
    }
    if (error_.empty()) script_.commands.push_back(std::move(cmd));
  }

  void Set(const std::string& rest, ScriptCommand* cmd) {
    size_t name_end = 0;
    while (name_end < rest.size() && IsNameChar(rest[name_end])) ++name_end;
    std::string name = rest.substr(0, name_end);
    if (name.empty() || !IsNameStart(name[0])) {
      Error(cmd->line, "\\set needs a variable name (letters, digits, _; not a digit first)");
      return;
    }
    std::string expr = Trim(rest.substr(name_end));
    if (expr.empty()) {
      Error(cmd->line, "\\set " + name + " needs an expression");
      return;
    }
    cmd->kind = ScriptCommandKind::kSet;
    cmd->slot = vars_->Slot(name);
    Expression(expr, cmd);
  }

  void Sleep(const std::string& rest, ScriptCommand* cmd) {
    cmd->kind = ScriptCommandKind::kSleep;
    size_t space = rest.find_first_of(" \t");
    std::string value = rest.substr(0, space);
    std::string unit = space == std::string::npos ? "" : Trim(rest.substr(space));
    if (value.empty()) {
      Error(cmd->line, "\\sleep needs a duration");
      return;
    }
    if (unit.empty() || unit == "s") {
      cmd->sleep_unit_us = 1000000;
    } else if (unit == "ms") {
      cmd->sleep_unit_us = 1000;
    } else if (unit == "us") {
      cmd->sleep_unit_us = 1;
    } else {
      Error(cmd->line, "\\sleep unit must be us, ms or s (got '" + unit + "')");
      return;
    }
    if (value[0] != ':' && !std::isdigit(static_cast<unsigned char>(value[0]))) {
      Error(cmd->line, "\\sleep takes an integer or a :variable (got '" + value + "')");
      return;
    }
    Expression(value, cmd);
  }

  void Expression(const std::string& text, ScriptCommand* cmd) {
    auto e = ParseExpression(text, vars_);
    if (!e.ok()) {
      Error(cmd->line, e.status().message());
      return;
    }
    cmd->expr = *e;
  }

  // Links \if ... \elif ... \else ... \endif: each branch command points to the next one,
  // every one of them to the \endif.
  void Branch(const std::string& word, const std::string& rest, ScriptCommand* cmd) {
    const size_t here = script_.commands.size();
    if (word == "if") {
      cmd->kind = ScriptCommandKind::kIf;
      open_.push_back(here);
      branches_.push_back({here});
      seen_else_.push_back(false);
    } else if (open_.empty()) {
      Error(cmd->line, "\\" + word + " without a matching \\if");
      return;
    } else if (seen_else_.back() && word != "endif") {
      Error(cmd->line, "\\" + word + " after \\else");
      return;
    } else {
      script_.commands[branches_.back().back()].next_branch = here;
      if (word == "endif") {
        cmd->kind = ScriptCommandKind::kEndif;
        for (size_t b : branches_.back()) script_.commands[b].end = here;
        open_.pop_back();
        branches_.pop_back();
        seen_else_.pop_back();
        return;
      }
      cmd->kind = word == "elif" ? ScriptCommandKind::kElif : ScriptCommandKind::kElse;
      branches_.back().push_back(here);
      seen_else_.back() = word == "else";
    }
    if (word != "else") {
      if (rest.empty()) {
        Error(cmd->line, "\\" + word + " needs a condition");
        return;
      }
      Expression(rest, cmd);
    }
  }

  const std::string& s_;
  VariableTable* vars_;
  PgbenchScript script_;
  size_t pos_ = 0;
  int line_ = 1;
  std::string error_;
  std::vector<size_t> open_;                   // Open \if commands.
  std::vector<std::vector<size_t>> branches_;  // Branch commands of each open \if.
  std::vector<bool> seen_else_;
};

}  // namespace

StatusOr<PgbenchScript> ParsePgbenchScript(const std::string& text, const std::string& name,
                                           VariableTable* variables) {
  return ScriptParser(text, name, variables).Parse();
}

StatusOr<PgbenchScript> LoadPgbenchScript(const std::string& path, VariableTable* variables) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParsePgbenchScript(*text, path, variables);
}

}  // namespace pgstorsim
