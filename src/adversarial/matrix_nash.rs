//! The Nash equilibrium of a small zero-sum matrix game by linear programming, and how far a pair
//! of mixed strategies is from one (exploitability).
//!
//! With every payoff shifted to be positive (value v > 0), the column player's problem is
//! maximise Σy subject to B·y <= 1, y >= 0: then Σy = 1/v, the column strategy is y/Σy, and the
//! duals of the constraints, scaled the same way, are the row player's strategy. A dense simplex
//! with Bland's rule (no cycling on the degenerate pivots games are full of) solves it; the
//! answer is exact up to floating-point rounding (about 1e-12 on small games).

/// Reduced costs and ratios closer to 0 than this count as 0.
const EPSILON: f64 = 1e-12;
/// Pivots before giving up; Bland's rule ends far sooner on any game that fits on a page.
const MAX_PIVOTS: usize = 100_000;

/// Equilibrium strategies and the game's value for the row player.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    pub value: f64,
    pub row: Vec<f64>,
    pub column: Vec<f64>,
}

/// Solves the zero-sum game where the row player gains `payoff[i][j]` and the column player loses it.
pub fn solve_zero_sum(payoff: &[Vec<f64>]) -> Result<Equilibrium, String> {
    let (m, n) = (payoff.len(), payoff.first().map_or(0, Vec::len));
    if n == 0 || payoff.iter().any(|row| row.len() != n) {
        return Err("a matrix game needs rows of one non-zero length".to_string());
    }
    if payoff.iter().flatten().any(|v| !v.is_finite()) {
        return Err("matrix game payoffs must be finite numbers".to_string());
    }
    let lowest = payoff.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - lowest;
    let rhs = n + m;
    // Rows 0..m: B·y + slack = 1; row m: the objective's reduced costs, -Σy to start.
    let mut table = vec![vec![0.0; rhs + 1]; m + 1];
    for (i, row) in payoff.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            table[i][j] = v + shift;
        }
        table[i][n + i] = 1.0;
        table[i][rhs] = 1.0;
    }
    table[m][..n].fill(-1.0);
    let mut basis: Vec<usize> = (n..n + m).collect();
    for _ in 0..MAX_PIVOTS {
        let Some(enter) = (0..rhs).find(|&c| table[m][c] < -EPSILON) else {
            return Ok(read_solution(&table, &basis, n, shift));
        };
        let leave = (0..m)
            .filter(|&i| table[i][enter] > EPSILON)
            .min_by(|&a, &b| {
                let (ra, rb) = (table[a][rhs] / table[a][enter], table[b][rhs] / table[b][enter]);
                ra.total_cmp(&rb).then(basis[a].cmp(&basis[b]))
            })
            .ok_or("the linear program is unbounded (cannot happen with positive payoffs)")?;
        pivot(&mut table, leave, enter);
        basis[leave] = enter;
    }
    Err(format!("the simplex did not finish in {MAX_PIVOTS} pivots"))
}

fn pivot(table: &mut [Vec<f64>], row: usize, column: usize) {
    let scale = table[row][column];
    table[row].iter_mut().for_each(|v| *v /= scale);
    let pivot_row = table[row].clone();
    for (i, other) in table.iter_mut().enumerate() {
        let factor = other[column];
        if i != row && factor != 0.0 {
            other.iter_mut().zip(&pivot_row).for_each(|(v, p)| *v -= factor * p);
        }
    }
}

fn read_solution(table: &[Vec<f64>], basis: &[usize], n: usize, shift: f64) -> Equilibrium {
    let m = basis.len();
    let rhs = n + m;
    let total = table[m][rhs];
    let mut column = vec![0.0; n];
    for (i, &var) in basis.iter().enumerate() {
        if var < n {
            column[var] = table[i][rhs] / total;
        }
    }
    let row = (0..m).map(|i| table[m][n + i] / total).collect();
    Equilibrium { value: 1.0 / total - shift, row, column }
}

/// The row player's expected payoff when both play the given mixed strategies.
pub fn expected_payoff(payoff: &[Vec<f64>], row: &[f64], column: &[f64]) -> f64 {
    payoff.iter().zip(row).map(|(line, &x)| x * line.iter().zip(column).map(|(v, &y)| v * y).sum::<f64>()).sum()
}

/// How much the two players together would gain by best-responding: the row player's best reply
/// to `column` minus the column player's best reply to `row` (NashConv). 0 exactly at an equilibrium.
pub fn exploitability(payoff: &[Vec<f64>], row: &[f64], column: &[f64]) -> f64 {
    let best_row = payoff
        .iter()
        .map(|line| line.iter().zip(column).map(|(v, &y)| v * y).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    let columns = payoff.first().map_or(0, Vec::len);
    let best_column = (0..columns)
        .map(|j| payoff.iter().zip(row).map(|(line, &x)| x * line[j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    best_row - best_column
}
