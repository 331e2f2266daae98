//! Planning the stream path ([`crate::kernel::exec::stream`]) for one kernel: which
//! registers are per thread and which per launch, the straight-line steps (conditional
//! expressions turned into selects), float32 updates narrowed to float32 operations, and
//! which loads may read arrays in place and which results may be written straight into
//! the array they are stored to.

use std::collections::HashMap;

use crate::arrays::dtype::{DType, Scalar};
use crate::arrays::operator::{Arith, Cmp};
use crate::kernel::ir::{ArrRef, Inst, Kernel, Op, Reg, Special, Stmt};
use crate::kernel::types::Ty;

#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) inst: Inst,
    /// The registers `inst` reads.
    pub(crate) args: Vec<Reg>,
    /// A load whose register may point into the array instead of holding a copy: no store
    /// happens between the load and the register's last use.
    pub(crate) view: bool,
    /// The stored value of the next step, written straight into that array parameter.
    pub(crate) forward: Option<u32>,
    /// A store already done by the step before it.
    pub(crate) forwarded: bool,
}

/// How an element-wise kernel runs on the stream path (see the module comment).
#[derive(Clone, Debug)]
pub struct StreamPlan {
    /// Type of every register: the kernel's, and constants added by [`narrow`].
    pub(crate) regs: Vec<DType>,
    /// Instructions whose value is the same for every thread, in program order.
    pub(crate) uniform: Vec<Inst>,
    pub(crate) steps: Vec<Step>,
    /// Per register: holds one value per thread (else one value per launch).
    pub(crate) varying: Vec<bool>,
    /// Threads with global id below `uniform[reg] + add` run the body; all when None.
    pub(crate) bound: Option<(Reg, i64)>,
    /// Array parameters the kernel loads or stores.
    pub(crate) arrays: Vec<u32>,
}

/// The values `op` reads on the stream path: its index registers are the global id, which
/// a stream step knows without reading a register.
fn operands(op: &Op) -> Vec<Reg> {
    match op {
        Op::Load(..) => Vec::new(),
        Op::Store(_, _, v) => vec![*v],
        _ => {
            let mut regs = Vec::new();
            op.reads(|r| regs.push(r));
            regs
        }
    }
}

/// The stream plan of `k`, or None when the kernel does not have the element-wise shape.
/// `exclusive` is [`crate::kernel::exec::plan::ExecHints::gid_exclusive`].
pub fn plan(k: &Kernel, exclusive: &[bool]) -> Option<StreamPlan> {
    // The guard: `if i < n:` around the body, or `if i >= n: return` before it (the
    // flag says the condition is the exit's).
    let exit_at = k.body.iter().position(
        |s| matches!(s, Stmt::If(_, then, els) if els.is_empty() && matches!(then[..], [Stmt::Exit])),
    );
    type Split<'a> = (&'a [Stmt], &'a [Stmt], Option<(Reg, bool)>);
    let (top, guarded, guard): Split = match (k.body.split_last(), exit_at) {
        (_, Some(at)) => match &k.body[at] {
            Stmt::If(c, _, _) => (&k.body[..at], &k.body[at + 1..], Some((*c, true))),
            _ => return None,
        },
        (Some((Stmt::If(c, then, els), rest)), None) if els.is_empty() => {
            (rest, then, Some((*c, false)))
        }
        _ => (&k.body, &[], None),
    };
    let mut regs = k.regs.clone();
    let mut seq: Vec<Inst> = Vec::new();
    for s in top {
        match s {
            Stmt::Inst(i) => seq.push(i.clone()),
            _ => return None,
        }
    }
    let guard_at = seq.len();
    flatten(guarded, &mut seq, &mut regs, &mut HashMap::new(), false)?;
    let n = regs.len();
    let base = regs.clone();
    let mut defs = vec![0u32; n]; // bounded: one per IR register
    for i in &seq {
        if let Some(d) = i.dst {
            defs[d as usize] += 1;
        }
    }
    // Registers holding the global id: one top-level definition before any use.
    let mut gid = vec![false; n]; // bounded: one per IR register
    for (pos, i) in seq.iter().enumerate() {
        if let Some(d) = i.dst.map(|d| d as usize) {
            gid[d] = pos < guard_at
                && defs[d] == 1
                && match i.op {
                    Op::Special(Special::GlobalId(0)) => true,
                    Op::Copy(s) => gid[s as usize],
                    _ => false,
                };
        }
    }
    let array = |j: u32| match k.params.get(j as usize) {
        Some(Ty::Array { dtype, ndim: 1, .. }) if *dtype != DType::Bool => Some(*dtype),
        _ => None,
    };
    let ty = |r: Reg| base[r as usize];
    let float = |t: DType| matches!(t, DType::F32 | DType::F64);
    let mut arrays = Vec::new();
    for i in &seq {
        let dt = i.dst.map(ty);
        let ok = match &i.op {
            Op::Const(_) | Op::Copy(_) => true,
            Op::Cast(_) => dt.is_some(),
            Op::Bin(_, a, b) => dt == Some(ty(*a)) && dt == Some(ty(*b)),
            Op::Un(_, a) => dt == Some(ty(*a)),
            Op::Cmp(_, a, b) => ty(*a) == ty(*b) && dt == Some(DType::Bool),
            Op::Select(c, a, b) => {
                ty(*c) == DType::Bool && dt == Some(ty(*a)) && dt == Some(ty(*b))
            }
            Op::Math(f, xs) => {
                let t = ty(xs[0]);
                float(t)
                    && xs.iter().all(|x| ty(*x) == t)
                    && dt == Some(if f.is_predicate() { DType::Bool } else { t })
            }
            Op::Param(j) => matches!(k.params.get(*j as usize), Some(Ty::Scalar(_))),
            Op::Dim(ArrRef::Param(j), ax) => {
                *ax < 3 && matches!(k.params.get(*j as usize), Some(Ty::Array { .. }))
            }
            Op::Special(
                Special::GlobalId(0) | Special::Ntid(_) | Special::Nctaid(_) | Special::WarpSize,
            ) => true,
            Op::Load(ArrRef::Param(j), idx) => {
                idx.len() == 1
                    && gid[idx[0] as usize]
                    && exclusive.get(*j as usize) == Some(&true)
                    && array(*j).is_some()
                    && dt == array(*j)
            }
            Op::Store(ArrRef::Param(j), idx, v) => {
                idx.len() == 1
                    && gid[idx[0] as usize]
                    && exclusive.get(*j as usize) == Some(&true)
                    && array(*j) == Some(ty(*v))
            }
            _ => false,
        };
        if !ok {
            return None;
        }
        if let Op::Load(ArrRef::Param(j), _) | Op::Store(ArrRef::Param(j), _, _) = &i.op {
            if !arrays.contains(j) {
                arrays.push(*j);
            }
        }
    }

    // Varying: defined per thread, from a varying operand, or more than once (a register
    // assigned twice must keep program order, so it is evaluated with the steps).
    let mut varying = vec![false; n]; // bounded: one per IR register
    loop {
        let mut changed = false;
        for i in &seq {
            let Some(d) = i.dst.map(|d| d as usize) else {
                continue;
            };
            let v = defs[d] > 1
                || matches!(i.op, Op::Special(Special::GlobalId(_)) | Op::Load(..))
                || operands(&i.op).iter().any(|r| varying[*r as usize]);
            if v && !varying[d] {
                varying[d] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let bound = match guard {
        None => None,
        Some((c, exit)) => {
            let def = seq[..guard_at].iter().find(|i| i.dst == Some(c))?;
            let Op::Cmp(cm, a, b) = def.op else {
                return None;
            };
            // Threads go on where the exit's condition is false.
            let cm = match (exit, cm) {
                (false, cm) => cm,
                (true, Cmp::Ge) => Cmp::Lt,
                (true, Cmp::Gt) => Cmp::Le,
                (true, Cmp::Le) => Cmp::Gt,
                (true, Cmp::Lt) => Cmp::Ge,
                _ => return None,
            };
            if defs[c as usize] != 1 || ty(a) != DType::I64 {
                return None;
            }
            let (u, add) = match cm {
                Cmp::Lt if gid[a as usize] => (b, 0),
                Cmp::Le if gid[a as usize] => (b, 1),
                Cmp::Gt if gid[b as usize] => (a, 0),
                Cmp::Ge if gid[b as usize] => (a, 1),
                _ => return None,
            };
            if varying[u as usize] {
                return None;
            }
            Some((u, add))
        }
    };

    let mut uniform: Vec<Inst> = seq
        .iter()
        .filter(|i| i.dst.is_some_and(|d| !varying[d as usize]))
        .cloned()
        .collect();
    let body = prune(seq, &varying);
    let body = narrow(body, &mut regs, &mut varying, &mut uniform, &defs);
    let mut steps: Vec<Step> = prune(body, &varying)
        .into_iter()
        .map(|inst| Step {
            args: operands(&inst.op),
            inst,
            view: false,
            forward: None,
            forwarded: false,
        })
        .collect();

    let mut uses = vec![0u32; regs.len()];
    for st in &steps {
        for r in &st.args {
            uses[*r as usize] += 1;
        }
    }
    let defs1 = |r: Reg| defs.get(r as usize).is_none_or(|d| *d == 1);
    for s in 1..steps.len() {
        let Op::Store(ArrRef::Param(j), _, v) = steps[s].inst.op else {
            continue;
        };
        let prev = &steps[s - 1].inst;
        let computed = !matches!(prev.op, Op::Load(..) | Op::Special(_));
        if computed && prev.dst == Some(v) && defs1(v) && uses[v as usize] == 1 {
            steps[s - 1].forward = Some(j);
            steps[s].forwarded = true;
        }
    }
    // Where each store writes memory: a forwarded store at the step that computes it.
    let writes: Vec<usize> = (0..steps.len())
        .filter(|&s| matches!(steps[s].inst.op, Op::Store(..)))
        .map(|s| if steps[s].forwarded { s - 1 } else { s })
        .collect();
    for s in 0..steps.len() {
        let Some(r) = steps[s].inst.dst else { continue };
        if !matches!(steps[s].inst.op, Op::Load(..)) || !defs1(r) {
            continue;
        }
        let last = (s + 1..steps.len())
            .filter(|&t| steps[t].args.contains(&r))
            .max()
            .unwrap_or(s);
        steps[s].view = !writes.iter().any(|&w| w > s && w < last);
    }
    Some(StreamPlan {
        regs,
        uniform,
        steps,
        varying,
        bound,
        arrays,
    })
}

/// Append the instructions of `stmts` to `out`, turning each `if` whose branches only
/// compute values (a conditional expression, an `if` that assigns variables) into both
/// branches followed by one select per variable they assign. Branch results go to fresh
/// registers, tracked in `cur` (original register -> register holding its value now).
/// None for anything else: loops, exits, stores inside a branch.
fn flatten(
    stmts: &[Stmt],
    out: &mut Vec<Inst>,
    regs: &mut Vec<DType>,
    cur: &mut HashMap<Reg, Reg>,
    in_branch: bool,
) -> Option<()> {
    let now = |cur: &HashMap<Reg, Reg>, r: Reg| *cur.get(&r).unwrap_or(&r);
    for s in stmts {
        match s {
            Stmt::Inst(i) => {
                if in_branch && matches!(i.op, Op::Store(..)) {
                    return None;
                }
                let mut i = i.clone();
                i.op.reads_mut(|r| *r = now(cur, *r));
                if let Some(d) = i.dst {
                    if in_branch {
                        let fresh = regs.len() as Reg;
                        regs.push(regs[d as usize]);
                        cur.insert(d, fresh);
                        i.dst = Some(fresh);
                    } else {
                        cur.remove(&d);
                    }
                }
                out.push(i);
            }
            Stmt::If(c, then, els) => {
                let c = now(cur, *c);
                let mut ct = cur.clone();
                flatten(then, out, regs, &mut ct, true)?;
                let mut ce = cur.clone();
                flatten(els, out, regs, &mut ce, true)?;
                let mut assigned: Vec<Reg> = ct
                    .iter()
                    .chain(ce.iter())
                    .filter(|(d, v)| cur.get(d) != Some(v))
                    .map(|(d, _)| *d)
                    .collect();
                assigned.sort_unstable();
                assigned.dedup();
                for d in assigned {
                    let (t, e) = (now(&ct, d), now(&ce, d));
                    let m = regs.len() as Reg;
                    regs.push(regs[d as usize]);
                    out.push(Inst {
                        dst: Some(m),
                        op: Op::Select(c, t, e),
                        loc: 0,
                    });
                    cur.insert(d, m);
                }
            }
            _ => return None,
        }
    }
    Some(())
}

/// Drop the per-thread instructions nothing stored depends on (the guard's comparison, a
/// global id used only as an index, what [`narrow`] replaced).
fn prune(body: Vec<Inst>, varying: &[bool]) -> Vec<Inst> {
    let mut live = vec![false; varying.len()];
    let mut kept: Vec<Inst> = Vec::new();
    for i in body.into_iter().rev() {
        let keep = match i.dst {
            None => true,
            Some(d) if varying[d as usize] && live[d as usize] => {
                live[d as usize] = false;
                true
            }
            _ => false,
        };
        if keep {
            for r in operands(&i.op) {
                live[r as usize] = true;
            }
            kept.push(i);
        }
    }
    kept.reverse();
    kept
}

/// Compute `float32(float64(a) op float64(b))` as the float32 operation `a op b` when both
/// operands are float32 values (or constants exactly representable as float32) and the
/// float64 intermediates have no other use. For + - * / the two are bit-identical:
/// float64 carries more than twice float32's precision plus two bits, so rounding the
/// exact result to float64 and then to float32 gives the correctly rounded float32 result
/// (the same argument that lets C evaluate float expressions in double). This is how
/// `a[i] += 1` on a float32 array becomes one float32 add per element.
fn narrow(
    mut body: Vec<Inst>,
    regs: &mut Vec<DType>,
    varying: &mut Vec<bool>,
    uniform: &mut Vec<Inst>,
    defs: &[u32],
) -> Vec<Inst> {
    let mut uses = vec![0u32; regs.len()];
    for i in body.iter().chain(uniform.iter()) {
        for r in operands(&i.op) {
            uses[r as usize] += 1;
        }
    }
    let def_of = |body: &[Inst], uniform: &[Inst], r: Reg| -> Option<Inst> {
        if defs.get(r as usize) != Some(&1) {
            return None;
        }
        body.iter()
            .chain(uniform.iter())
            .find(|i| i.dst == Some(r))
            .cloned()
    };
    for at in 0..body.len() {
        let Op::Cast(r) = body[at].op else { continue };
        let Some(f) = body[at].dst else { continue };
        if regs[f as usize] != DType::F32 || regs[r as usize] != DType::F64 || uses[r as usize] != 1
        {
            continue;
        }
        let Some(Inst {
            op: Op::Bin(op, a, b),
            ..
        }) = def_of(&body, uniform, r)
        else {
            continue;
        };
        if !matches!(op, Arith::Add | Arith::Sub | Arith::Mul | Arith::Div) {
            continue;
        }
        // The float32 value an operand widens, if it is one.
        let mut narrowed =
            |x: Reg, regs: &mut Vec<DType>, varying: &mut Vec<bool>| -> Option<Reg> {
                if uses[x as usize] != 1 {
                    return None;
                }
                match def_of(&body, uniform, x)?.op {
                    Op::Cast(src) if regs[src as usize] == DType::F32 => {
                        (defs.get(src as usize) == Some(&1)).then_some(src)
                    }
                    Op::Cast(src) => match def_of(&body, uniform, src)?.op {
                        Op::Const(c) => {
                            let v = c.as_f64();
                            if c.dtype() == DType::Bool || (v as f32) as f64 != v {
                                return None;
                            }
                            let nr = regs.len() as Reg;
                            regs.push(DType::F32);
                            varying.push(false);
                            uniform.push(Inst {
                                dst: Some(nr),
                                op: Op::Const(Scalar::F32(v as f32)),
                                loc: 0,
                            });
                            Some(nr)
                        }
                        _ => None,
                    },
                    _ => None,
                }
            };
        let (Some(a32), Some(b32)) = (narrowed(a, regs, varying), narrowed(b, regs, varying))
        else {
            continue;
        };
        body[at].op = Op::Bin(op, a32, b32);
    }
    body
}
