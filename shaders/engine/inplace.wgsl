// State binding of a rule that updates in place: only for rules whose result does not depend on update order
// (monotone rules such as dead-end filling), where reading a neighbour's newer value is as good as its older one.
@group(1) @binding(0) var<storage, read_write> state: array<atomic<u32>>;
