// Host's transaction stream: start, run and skip transactions, singly or with keys drawn ahead.
#include <algorithm>
#include <array>

#include "pgmodel/host.h"

namespace pgstorsim::pgmodel {
namespace {

bool InsertsHistory(WorkloadKind kind) { return kind != WorkloadKind::kSelectOnly; }

// Calls run(k) for the next `n` keys k = next() in order, each drawn kAhead calls ahead
// of its run and passed to prefetch(k) then; next() is called exactly n times.
template <typename Next, typename Prefetch, typename Run>
void WithKeysAhead(Next next, int64_t n, Prefetch prefetch, Run run) {
  constexpr int64_t kAhead = 4;
  std::array<TxnKeys, kAhead> ahead;
  int64_t drawn = 0;
  auto draw = [&] {
    TxnKeys& k = ahead[drawn++ % kAhead];
    k = next();
    prefetch(k);
  };
  while (drawn < std::min(n, kAhead)) draw();
  for (int64_t i = 0; i < n; ++i) {
    const TxnKeys current = ahead[i % kAhead];
    if (drawn < n) draw();
    run(current);
  }
}

}  // namespace

void Host::StartTransaction(const TxnKeys& keys, std::vector<StatementEffects>* effects) {
  model_->Transaction(keys, history_rows_, effects);
  if (InsertsHistory(config_.workload)) ++history_rows_;
  if (config_.heap_churn) {
    const HeapChurnStats before = churn_->stats();
    churn_->Apply(keys, effects);
    CountChurn(before);
  }
}

void Host::CountChurn(const HeapChurnStats& before) {
  counts_.non_hot_updates += churn_->stats().non_hot_updates - before.non_hot_updates;
  counts_.prunes += churn_->stats().prunes - before.prunes;
}

void Host::RunTransaction(const TxnKeys& keys, std::vector<CacheIo>* ios) {
  StartTransaction(keys, &scratch_);
  for (const StatementEffects& e : scratch_) {
    StatementProgress progress;
    for (const PageTouch& t : e.touches) Touch(e.statement, t, &progress, ios);
    InsertWal(e, progress);
  }
  EndTransaction();
}

// What StartTransaction does to the state, and the relations' growth from its
// touches: where those can only be the history page and the heap churn's new accounts
// pages (skip_growth_known_), without building the touches.
void Host::SkipTransaction(const TxnKeys& keys) {
  if (skip_growth_known_) {
    const HeapChurnStats before = churn_->stats();
    if (config_.heap_churn) churn_->Advance(keys, updates_accounts_);
    EndSkips(1, before);
    return;
  }
  StartTransaction(keys, &scratch_);
  for (const StatementEffects& e : scratch_) {
    for (const PageTouch& t : e.touches) {
      int64_t& pages = relation_pages_[static_cast<int>(t.relation)];
      pages = std::max(pages, t.block + 1);
    }
  }
}

// After `n` skipped transactions (skip_growth_known_) whose heap churn ran from
// `before`: the history rows they inserted and the pages those and the churn's
// appended rows need. Both grow monotonically, so their largest value over the n
// transactions is the last one's: the history page of the last row inserted
// before it, and the churn's current accounts size.
void Host::EndSkips(int64_t n, const HeapChurnStats& before) {
  if (n <= 0) return;
  if (inserts_history_row_) {
    int64_t& pages = relation_pages_[static_cast<int>(Relation::kHistory)];
    const int64_t last_row_before = history_rows_ + n - 1;
    pages = std::max(pages, last_row_before / layout_->history_tuples_per_page() + 1);
  }
  if (InsertsHistory(config_.workload)) history_rows_ += n;
  if (config_.heap_churn) {
    CountChurn(before);
    int64_t& pages = relation_pages_[static_cast<int>(Relation::kAccounts)];
    pages = std::max(pages, churn_->accounts_pages());
  }
}

void Host::SkipTransactions(KeyGenerator* keys, int64_t n) {
  if (!skip_growth_known_) {
    for (int64_t i = 0; i < n; ++i) SkipTransaction(keys->Next());
    return;
  }
  const HeapChurnStats before = churn_->stats();
  if (!config_.heap_churn) {
    for (int64_t i = 0; i < n; ++i) keys->NextAid();
    EndSkips(n, before);
    return;
  }
  // The heap churn reads only the aid: the other keys are drawn, not computed.
  auto next_aid = [keys] {
    TxnKeys k;
    k.aid = keys->NextAid();
    return k;
  };
  WithKeysAhead(
      next_aid, n, [this](const TxnKeys& k) { churn_->Prefetch(k); },
      [this](const TxnKeys& k) { churn_->Advance(k, updates_accounts_); });
  EndSkips(n, before);
}

void Host::RunTransactions(KeyGenerator* keys, int64_t n) {
  std::vector<CacheIo> ios;
  auto next = [keys] { return keys->Next(); };
  WithKeysAhead(
      next, n, [this](const TxnKeys& k) { Prefetch(k); },
      [&](const TxnKeys& k) {
        ios.clear();
        RunTransaction(k, &ios);
      });
}

void Host::Prefetch(const TxnKeys& keys) const {
  if (config_.heap_churn) churn_->Prefetch(keys);
  const int64_t block = layout_->HeapBlock(Relation::kAccounts, keys.aid);
  cache_->Prefetch({static_cast<uint32_t>(Relation::kAccounts), block});
  changed_.Prefetch(ChangedKey(Relation::kAccounts, block));
}

void Host::Reserve(int64_t transactions) {
  if (!config_.heap_churn) return;
  const double updates = model_->ExpectedTouches(Statement::kUpdateAccounts, Relation::kAccounts);
  churn_->Reserve(static_cast<int64_t>(updates * static_cast<double>(transactions)));
}

}  // namespace pgstorsim::pgmodel
