//! Why a pattern could not be grounded.

/// Why a pattern could not be grounded; the umpire reports it as undecided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EncodeError {
    /// The caller raised the interrupt flag while the grounding was being built.
    Stopped,
    /// The grounding passed its clause budget (the number given).
    TooBig(usize),
    /// Anything else (an internal error, said as such).
    Other(String),
}

impl EncodeError {
    /// A bug rather than a limit.
    pub fn is_internal(&self) -> bool {
        matches!(self, EncodeError::Other(m) if m.starts_with("internal error"))
    }

    pub fn message(&self) -> String {
        match self {
            EncodeError::Stopped => "the search was stopped before it could decide".to_string(),
            EncodeError::TooBig(n) => {
                format!("the patterns are too complex to ground exactly (more than {n} clauses)")
            }
            EncodeError::Other(m) => m.clone(),
        }
    }
}
