// Test helper: a tiny well-formedness check for the SVG/HTML we generate. Tags must
// nest and close (void HTML elements excepted), '&' must start an entity, attribute
// values are quoted. Returns "" when fine, else a description of the first problem.
#ifndef PGSTORSIM_TESTS_REPORT_XML_CHECK_H_
#define PGSTORSIM_TESTS_REPORT_XML_CHECK_H_

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace pgstorsim {
namespace testing_xml {

inline std::string CheckEntities(const std::string& text, size_t offset) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') continue;
    size_t semi = text.find(';', i);
    if (semi == std::string::npos || semi - i > 8) {
      return "bare '&' at " + std::to_string(offset + i);
    }
  }
  return "";
}

// Counts elements named `name` (opening tags).
inline int CountElements(const std::string& doc, const std::string& name) {
  int n = 0;
  for (size_t pos = doc.find("<" + name); pos != std::string::npos;
       pos = doc.find("<" + name, pos + 1)) {
    char next = doc[pos + 1 + name.size()];
    if (next == ' ' || next == '>' || next == '/' || next == '\n') ++n;
  }
  return n;
}

inline std::string CheckWellFormed(const std::string& doc) {
  static const std::set<std::string> kVoid = {"meta", "br", "hr", "img", "link", "input"};
  std::vector<std::string> stack;
  size_t i = 0;
  bool in_raw = false;  // Inside <style>: content is CSS, not markup.
  while (i < doc.size()) {
    size_t lt = doc.find('<', i);
    std::string text = doc.substr(i, lt == std::string::npos ? std::string::npos : lt - i);
    if (!in_raw) {
      std::string e = CheckEntities(text, i);
      if (!e.empty()) return e;
    }
    if (lt == std::string::npos) break;
    size_t gt = doc.find('>', lt);
    if (gt == std::string::npos) return "unterminated tag at " + std::to_string(lt);
    std::string tag = doc.substr(lt + 1, gt - lt - 1);
    i = gt + 1;
    if (in_raw && tag != "/style") continue;
    if (tag.empty()) return "empty tag at " + std::to_string(lt);
    if (tag[0] == '!' || tag[0] == '?') continue;
    if (tag.find('<') != std::string::npos) return "'<' inside tag at " + std::to_string(lt);
    if (std::count(tag.begin(), tag.end(), '"') % 2) return "odd quotes in <" + tag + ">";
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) {
        return "closing </" + name + "> does not match <" +
               (stack.empty() ? std::string("none") : stack.back()) + ">";
      }
      stack.pop_back();
      in_raw = false;
      continue;
    }
    size_t end = 0;
    while (end < tag.size() && !std::isspace(static_cast<unsigned char>(tag[end])) &&
           tag[end] != '/') {
      ++end;
    }
    std::string name = tag.substr(0, end);
    if (tag.back() == '/' || kVoid.count(name)) continue;
    stack.push_back(name);
    if (name == "style") in_raw = true;
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return "";
}

}  // namespace testing_xml
}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_REPORT_XML_CHECK_H_
