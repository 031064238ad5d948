//! Node types: the expected role of a node in an alpha-beta tree.
//!
//! Rules (Knuth and Moore's, as the parallel algorithms use them):
//! - the root is a PV node;
//! - a PV node's first child is PV, its other children are CUT;
//! - CUT and ALL alternate: a CUT node's children are ALL, an ALL node's are CUT;
//! - a CUT node whose first child fails to cut becomes an ALL node, so its
//!   later children are CUT.
//!
//! Split-point selection reads these predictions: ALL and PV nodes are where
//! every move must be searched, so helpers there are rarely wasted.

/// The expected type of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeType {
    /// On the principal variation: every move searched, the value is exact.
    Pv,
    /// Expected to fail high: one good move refutes it.
    Cut,
    /// Expected to fail low: every move must be searched.
    All,
}

impl NodeType {
    /// The expected type of the child reached by the `index`-th move searched
    /// (0-based), assuming this node has not changed type yet.
    #[inline]
    pub fn child(self, index: usize) -> NodeType {
        match (self, index) {
            (NodeType::Pv, 0) => NodeType::Pv,
            (NodeType::Pv, _) => NodeType::Cut,
            (NodeType::Cut, 0) => NodeType::All,
            // Past its first move a CUT node has become ALL: children are CUT.
            (NodeType::Cut, _) => NodeType::Cut,
            (NodeType::All, _) => NodeType::Cut,
        }
    }

    /// The type after the first move has been searched without a cutoff:
    /// a CUT node becomes ALL, others stay.
    #[inline]
    pub fn after_first_move(self) -> NodeType {
        match self {
            NodeType::Cut => NodeType::All,
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NodeType::*;

    #[test]
    fn rules_of_the_design() {
        assert_eq!(Pv.child(0), Pv);
        assert_eq!(Pv.child(3), Cut);
        assert_eq!(Cut.child(0), All);
        assert_eq!(All.child(0), Cut);
        assert_eq!(All.child(5), Cut);
        assert_eq!(Cut.after_first_move(), All);
        assert_eq!(Cut.after_first_move().child(1), Cut);
        assert_eq!(Pv.after_first_move(), Pv);
    }
}
