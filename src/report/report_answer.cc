// The capacity-planning answer (first screen): best configuration, objective verdict, headroom.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/units.h"
#include "report/report_questions.h"
#include "report/report_sections.h"

namespace pgstorsim {
namespace report {
namespace {

using json = nlohmann::json;

// A row's value of the objective's metric (rows carry tps and p95_ms).
std::optional<double> RowValue(const SweepRow& row, const Objective& o) {
  if (o.metric == "tps") return row.tps;
  if (o.metric == "p95_ms") return row.p95_ms;
  return std::nullopt;
}

// Relative margin (> 0 met), as slo.h defines it.
double Margin(double value, const Objective& o) {
  return o.at_most ? 1 - value / o.limit : value / o.limit - 1;
}

std::string Subset(const std::map<std::string, std::string>& settings,
                   const std::vector<std::string>& keys) {
  std::map<std::string, std::string> sub;
  for (const std::string& k : keys) {
    auto it = settings.find(k);
    if (it != settings.end()) sub[k] = it->second;
  }
  return SettingsText(sub);
}

std::string RowFigures(const SweepRow& row) {
  std::string text = FormatNumber(row.tps, 0) + " tps";
  if (row.tps_low && row.tps_high) {
    text += " (band " + FormatNumber(*row.tps_low, 0) + "-" + FormatNumber(*row.tps_high, 0) + ")";
  } else {
    text += " (no band: uncalibrated)";
  }
  if (row.p95_ms) text += ", p95 " + FormatNumber(*row.p95_ms, 1) + " ms";
  return text;
}

// Each regime's words a DBA uses: a short table cell and a sentence.
struct RegimeText {
  const char* regime;
  const char* limit;
  const char* sentence;
};
constexpr RegimeText kRegimeTexts[] = {
    {"destage-bound", "disk writes (controller cache full)",
     "write-back bound: the disks cannot drain the controller cache as fast as commits fill "
     "it, so commits wait for room"},
    {"read-bound", "disk reads (cache misses)",
     "read bound: cache misses waiting for the disks set the pace"},
    {"write-bound", "disk writes (commits or reads wait for them)",
     "write bound: commits (or synchronous writes) wait for the disks' writes - the WAL "
     "flush, and in checkpoints the data the OS writes ahead of it - or the reads queue "
     "behind those writes, longer than for anything else"},
    {"file-lock-bound", "the file's lock",
     "file-lock bound: the requests take turns on the file's lock, which the filesystem "
     "holds through each write's block read and fsync"},
    {"cpu-bound", "CPU", "CPU bound: the cores, not the storage, set the pace"},
};

const RegimeText* TextOf(const std::string& regime) {
  for (const RegimeText& t : kRegimeTexts) {
    if (regime == t.regime) return &t;
  }
  return nullptr;
}

// The regime in a sentence; an unknown one as it is.
std::string RegimeWords(const std::string& regime) {
  const RegimeText* t = TextOf(regime);
  return t ? t->sentence : regime;
}

// The regime as a short table cell; an unknown one as it is.
std::string LimitWords(const std::string& regime) {
  const RegimeText* t = TextOf(regime);
  return t ? t->limit : regime;
}

// What the objective's search found for the configuration with these settings.
const json* HeadroomFor(const Objective& o, const SweepRow& row,
                        const std::vector<std::string>& keys) {
  for (const json& c : o.configurations) {
    if (!c.contains("settings") || !c["settings"].is_object()) continue;
    const FlatConfig settings = FlattenConfig(c["settings"]);  // As the sweep rows'.
    bool match = true;
    for (const std::string& k : keys) {
      auto it = row.settings.find(k);
      auto given = settings.find(k);
      match = match && it != row.settings.end() && given != settings.end() &&
              given->second == it->second;
    }
    if (match) return &c;
  }
  return nullptr;
}

// The unit of a configuration's rate: an io workload's (its data is a file) is
// requests per second.
std::string RateUnit(const json& c) {
  return c.contains("file_size_bytes") ? " requests/s" : " tps";
}

std::string WhatItTakes(const Objective& o, const json& c) {
  std::string text;
  const int clients = c.value("clients", 0);
  const std::string clients_what = o.metric == "tps" ? "reaches it from " : "holds it up to ";
  text += clients > 0 ? clients_what + std::to_string(clients) + " clients (" +
                            c.value("clients_limit", "") + ")"
                      : "no client count meets it (" + c.value("clients_limit", "") + ")";
  const bool file = c.contains("file_size_bytes");
  const std::string data = file ? "file_size" : "scale";
  const long long largest = c.value(file ? "file_size_bytes" : "scale", 0LL);
  const std::string limit = " (" + c.value(data + "_limit", "") + ")";
  if (largest <= 0) {
    text += file ? "; not at any file size" : "; not at any scale";
  } else {
    text += file ? "; up to a " + FormatBytes(largest) + " file" + limit
                 : "; up to scale " + std::to_string(largest) + limit;
  }
  if (c.contains("tps_at_double_" + data)) {
    text += "; at 2x data " + FormatNumber(c.value("tps_at_double_" + data, 0.0), 0) + RateUnit(c) +
            ", p95 " + FormatNumber(c.value("p95_ms_at_double_" + data, 0.0), 1) + " ms";
  }
  return text;
}

void AnswerQuestion(const Question& q, Section* s) {
  const std::string name = q.input->label;
  if (q.rows.empty()) {  // An objective without a sweep: the current configuration.
    for (const json& c : q.objective->configurations) {
      s->bullets.push_back(name + ": " + q.objective->text + " " +
                           (c.value("meets", false) ? "met" : "missed") + " (" +
                           FormatNumber(c.value("tps", 0.0), 0) + RateUnit(c) + ", p95 " +
                           FormatNumber(c.value("p95_ms", 0.0), 1) + " ms); it " +
                           WhatItTakes(*q.objective, c) + ".");
    }
    if (s->lead.empty() && !s->bullets.empty()) s->lead = s->bullets.back();
    return;
  }
  const SweepRow* current = BaseRow(q.rows);
  if (q.choices.empty()) {
    s->paragraphs.push_back(
        name + ": the sweep varies only the workload (" + Subset(current->settings, q.workload) +
        " ...): these are projections of one configuration, there is nothing to recommend.");
    const SweepRow& last = q.rows.back();
    s->bullets.push_back("Current: " + RowFigures(*current) + "; at " +
                         Subset(last.settings, q.workload) + ": " + RowFigures(last) + ".");
    if (s->lead.empty()) s->lead = "Nothing to recommend: " + name + " varies only the workload.";
    return;
  }
  // Recommend among configurations at the current workload.
  std::vector<const SweepRow*> candidates;
  for (const SweepRow& r : q.rows) {
    if (SameOn(r, *current, q.workload)) candidates.push_back(&r);
  }
  const Objective* o = q.objective ? &*q.objective : nullptr;
  const SweepRow* best = nullptr;
  const SweepRow* closest = nullptr;
  double closest_margin = -1e300;
  for (const SweepRow* r : candidates) {
    bool meets = true;
    if (o) {
      // The row's value of the metric, else the objective search's verdict (rows carry
      // tps and p95 only).
      const auto v = RowValue(*r, *o);
      const json* c = v ? nullptr : HeadroomFor(*o, *r, q.choices);
      const double m = v ? Margin(*v, *o) : c ? c->value("margin", 0.0) : 0.0;
      meets = m >= 0;
      if (!closest || m > closest_margin) closest_margin = m, closest = r;
    }
    if (meets && (!best || r->tps > best->tps)) best = r;
  }
  if (!best && !closest) return;  // No row at the current workload.
  const std::string question =
      "Which " +
      [&] {
        std::string keys;
        for (const std::string& k : q.choices) keys += (keys.empty() ? "" : " and ") + ShortKey(k);
        return keys;
      }() +
      (o ? " meets " + o->text : " gives the most throughput") + " at " +
      (q.workload.empty() ? "the current workload" : Subset(current->settings, q.workload)) + "?";
  // Each question leads its own bullets (a report may answer several).
  s->bullets.push_back("Question (" + name + "): " + question);
  std::string answer;
  if (!best) {
    answer = "No configuration meets " + o->text + "; the closest, " +
             Subset(closest->settings, q.choices) + ", misses it by " +
             FormatNumber(-100 * closest_margin, 0) + " % (" + RowFigures(*closest) + ").";
  } else if (best != current && best->tps_low && current->tps_high &&
             *best->tps_low <= *current->tps_high) {
    // Bands that overlap: the model cannot tell the two apart.
    answer = "Not distinguishable: " + Subset(best->settings, q.choices) + " (" +
             RowFigures(*best) + ") overlaps the current " + Subset(current->settings, q.choices) +
             "'s band " + FormatNumber(*current->tps_low, 0) + "-" +
             FormatNumber(*current->tps_high, 0) + "; keep the current configuration.";
  } else if (best == current) {
    answer = "Keep the current configuration (" + Subset(current->settings, q.choices) +
             "): no other is predicted faster (" + RowFigures(*current) + ").";
  } else {
    answer = "Best: " + Subset(best->settings, q.choices) + ": " + RowFigures(*best) +
             ", vs current " + Subset(current->settings, q.choices) + ": " + RowFigures(*current) +
             " (" + PercentChange(current->tps, best->tps) + " tps).";
  }
  if (s->lead.empty()) s->lead = answer;
  s->bullets.push_back(answer);
  if (o) {
    int met = 0;
    for (const SweepRow* r : candidates) {
      const auto v = RowValue(*r, *o);
      const json* c = v ? nullptr : HeadroomFor(*o, *r, q.choices);
      met += v ? Margin(*v, *o) >= 0 : c != nullptr && c->value("meets", false);
    }
    s->bullets.push_back("Objective " + o->text + ": met by " + std::to_string(met) + " of " +
                         std::to_string(candidates.size()) + " configurations.");
    const SweepRow* subject = best ? best : closest;
    if (const json* c = HeadroomFor(*o, *subject, q.choices)) {
      s->bullets.push_back("What it would take: " + Subset(subject->settings, q.choices) + " " +
                           WhatItTakes(*o, *c) + ".");
    }
  }
  // One line per configuration at the current workload.
  s->table.header = {
      "question",   "configuration",           "tps",           "tps band", "p95 (ms)",
      "vs current", o ? o->text : "objective", "what limits it"};
  for (const SweepRow* r : candidates) {
    std::string verdict = "-";
    if (o) {
      const auto v = RowValue(*r, *o);
      const json* c = v ? nullptr : HeadroomFor(*o, *r, q.choices);
      const std::optional<double> m = v   ? std::optional<double>(Margin(*v, *o))
                                      : c ? std::optional<double>(c->value("margin", 0.0))
                                          : std::nullopt;
      verdict = !m ? "-" : *m >= 0 ? "met" : "missed by " + FormatNumber(-100 * *m, 0) + " %";
    }
    s->table.rows.push_back(
        {name, Subset(r->settings, q.choices) + (r == current ? " (current)" : ""),
         FormatNumber(r->tps, 0),
         r->tps_low && r->tps_high
             ? FormatNumber(*r->tps_low, 0) + "-" + FormatNumber(*r->tps_high, 0)
             : "-",
         r->p95_ms ? FormatNumber(*r->p95_ms, 1) : "-", PercentChange(current->tps, r->tps),
         verdict, r->regime.empty() ? "-" : LimitWords(r->regime)});
  }
  if (IsModel(q.input->results)) {
    s->bullets.push_back("Predicted by " + name + " (" + q.input->results.kind +
                         "), not measured: confirm with `pgstorsim run` on the chosen "
                         "configuration before relying on it. Compared with the sweep's " +
                         (current->base ? "base configuration (the scenario without sweep "
                                          "overrides)"
                                        : "first row") +
                         "; the workload stays as in the scenario.");
  }
  if (best && !best->regime.empty()) {
    s->bullets.push_back("Why: " + Subset(best->settings, q.choices) + " is " +
                         RegimeWords(best->regime) + ".");
  }
  for (const RefusedRow& r : RefusedSweepRowsOf(q.input->results)) {
    s->bullets.push_back("Not predicted: " + SettingsText(r.settings) + " (" + r.error + ").");
  }
}

}  // namespace

std::optional<Section> AnswerSection(const Inputs& inputs) {
  const std::vector<Question> questions = QuestionsOf(inputs);
  if (questions.empty()) return std::nullopt;
  Section s("answer", "Answer");
  for (const Question& q : questions) AnswerQuestion(q, &s);
  return s;
}

}  // namespace report
}  // namespace pgstorsim
