// Test data tables under tests/data/: tab-separated, '#' comment lines, a header line
// naming the columns. ReadTsvTable returns one map per data row, column name -> text
// (missing trailing fields are empty). Files are read relative to the source tree.
#ifndef PGSTORSIM_TESTS_SUPPORT_TSV_TABLE_H_
#define PGSTORSIM_TESTS_SUPPORT_TSV_TABLE_H_

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pgstorsim::testing_support {

using TsvRow = std::map<std::string, std::string>;

inline std::vector<std::string> SplitTsvFields(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

// `relative_path` under the source tree, e.g. "tests/data/sim_predict_crosscheck.tsv".
// An unreadable file gives no rows (the caller asserts a minimum count).
inline std::vector<TsvRow> ReadTsvTable(const std::string& relative_path) {
  std::ifstream in(std::string(PGSTORSIM_SOURCE_DIR) + "/" + relative_path);
  std::vector<std::string> header;
  std::vector<TsvRow> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = SplitTsvFields(line, '\t');
    if (header.empty()) {
      header = fields;
      continue;
    }
    TsvRow row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < fields.size() ? fields[i] : "";
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pgstorsim::testing_support

#endif  // PGSTORSIM_TESTS_SUPPORT_TSV_TABLE_H_
