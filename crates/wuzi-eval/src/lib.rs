//! wuzi-eval: the static evaluation of a position, from the side to move's point of view.
//!
//! Two evaluations share one shape (per-cell values kept incrementally by the board, plus a
//! term from the threat bitboards): the hand-set one ([`eval`], `EvalChoice::Classic`) and the
//! learned one ([`learned`]), whose weights are fitted from games by `wuzi-tune` and committed
//! under `weights/`. The search resolves an [`eval::EvalChoice`] into an [`eval::Evaluator`]
//! once per search and installs its cell-value table into the board.
//!
//! Invariant: after any sequence of moves and undos, the incremental evaluation equals
//! [`learned::evaluate_from_scratch`] (tested in `tests/learned_eval.rs`).

pub mod eval;
pub mod learned;
