//! `perft run`: one position, divide and total; optionally hashed,
//! verified, checkpointed and resumable. It reads as its four steps, each
//! in a module of its own: the arguments resolved ([`resolve`]), the table
//! and the work planned ([`plan`]), the count ([`count`]), and the report
//! ([`report`]).

mod count;
mod plan;
mod report;
mod resolve;

use anyhow::Result;

use super::args::RunArgs;

pub fn run(args: RunArgs) -> Result<u8> {
    let mut run = resolve::resolve(&args)?;
    if args.stats {
        let counted = count::count_stats(&args, &run)?;
        return report::report_stats(&args, run, counted);
    }
    let plan = plan::plan(&args, &mut run)?;
    let counted = count::count(&args, &mut run, plan)?;
    report::report(&args, run, counted)
}
