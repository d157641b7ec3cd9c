// ScriptRunner of pgbench_script.h: one client's interpreter.
#include <algorithm>

#include "workload/pgbench_script.h"

namespace pgstorsim {

ScriptRunner::ScriptRunner(const VariableTable* variables, Random random)
    : variables_(variables), random_(std::move(random)), values_(variables->size()) {}

void ScriptRunner::Set(const std::string& name, ScriptValue value) {
  int slot = variables_->Find(name);
  if (slot >= 0) values_[slot] = value;
}

void ScriptRunner::Begin(const PgbenchScript* script) {
  script_ = script;
  pc_ = 0;
}

Status ScriptRunner::Fail(const ScriptCommand& c, const Status& s) const {
  return Status::Error(script_->name + ":" + std::to_string(c.line) + ": " + s.message());
}

Status ScriptRunner::Truth(const ScriptCommand& c, bool* out) {
  auto v = Evaluate(*c.expr, values_, *variables_, &random_);
  if (!v.ok()) return Fail(c, v.status());
  switch (v->type) {
    case ScriptValue::Type::kBool:
      *out = v->b;
      break;
    case ScriptValue::Type::kInt:
      *out = v->i != 0;
      break;
    case ScriptValue::Type::kDouble:
      *out = v->d != 0;
      break;
    default:
      *out = false;
  }
  return Status::Ok();
}

Status ScriptRunner::Next(ScriptAction* action) {
  const auto& cmds = script_->commands;
  while (pc_ < cmds.size()) {
    const ScriptCommand& c = cmds[pc_];
    switch (c.kind) {
      case ScriptCommandKind::kSql:
        ++pc_;
        action->kind = ScriptAction::Kind::kSql;
        action->sql = c.sql;
        return Status::Ok();
      case ScriptCommandKind::kSet: {
        auto v = Evaluate(*c.expr, values_, *variables_, &random_);
        if (!v.ok()) return Fail(c, v.status());
        values_[c.slot] = *v;
        ++pc_;
        break;
      }
      case ScriptCommandKind::kSleep: {
        auto v = Evaluate(*c.expr, values_, *variables_, &random_);
        if (!v.ok()) return Fail(c, v.status());
        if (v->type != ScriptValue::Type::kInt) {
          return Fail(c, Status::Error("\\sleep needs an integer"));
        }
        ++pc_;
        action->kind = ScriptAction::Kind::kSleep;
        action->sleep_us = v->i * c.sleep_unit_us;
        return Status::Ok();
      }
      case ScriptCommandKind::kIf: {
        // A false condition moves to the next branch: \elif conditions are tried in
        // turn; \else or \endif ends the search.
        bool taken = false;
        if (Status s = Truth(c, &taken); !s.ok()) return s;
        size_t at = pc_;
        while (!taken) {
          size_t next = cmds[at].next_branch;
          if (cmds[next].kind != ScriptCommandKind::kElif) {
            at = next;
            break;
          }
          if (Status s = Truth(cmds[next], &taken); !s.ok()) return s;
          at = next;
        }
        pc_ = at + 1;
        break;
      }
      case ScriptCommandKind::kElif:
      case ScriptCommandKind::kElse:
        pc_ = c.end + 1;  // Reached at the end of a taken branch.
        break;
      case ScriptCommandKind::kEndif:
        ++pc_;
        break;
    }
  }
  action->kind = ScriptAction::Kind::kEnd;
  return Status::Ok();
}

Status ScriptRunner::Params(const ScriptSql& sql, std::vector<const char*>* values) {
  param_text_.resize(std::max(param_text_.size(), sql.param_slots.size()));
  values->resize(sql.param_slots.size());
  for (size_t i = 0; i < sql.param_slots.size(); ++i) {
    const ScriptValue& v = values_[sql.param_slots[i]];
    if (v.type == ScriptValue::Type::kUnset) {
      return Status::Error(script_->name + ":" + std::to_string(sql.line) +
                           ": undefined variable \"" +
                           variables_->Name(sql.param_slots[i]) + "\"");
    }
    FormatScriptValue(v, param_text_[i].data());
    (*values)[i] = param_text_[i].data();
  }
  return Status::Ok();
}

void ScriptRunner::SimpleText(const ScriptSql& sql, std::string* out) const {
  out->clear();
  char buf[32];
  for (size_t i = 0; i < sql.part_slots.size(); ++i) {
    *out += sql.parts[i];
    const ScriptValue& v = values_[sql.part_slots[i]];
    if (v.type == ScriptValue::Type::kUnset) {
      *out += ":" + variables_->Name(sql.part_slots[i]);
    } else {
      out->append(buf, FormatScriptValue(v, buf));
    }
  }
  *out += sql.parts.back();
}

}  // namespace pgstorsim
