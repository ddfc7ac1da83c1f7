//! Engines of a known kind built from their specs: UCI, a console kept
//! running, a command line per count. (A program given alone is probed
//! first: [`super::auto`].)

use super::command::CommandEngine;
use super::console::{ConsoleEngine, CONSOLE_PERFT};
use super::spec::{EngineSpec, Protocol};
use super::uci::UciEngine;
use super::{Engine, EngineOptions};

/// An engine for `spec`, named `name`, set up as `options` say. An `auto`
/// spec is built by [`EngineSpec::build`], which probes it; here it is read
/// as UCI, what probing tries first.
pub(super) fn concrete_engine(spec: &EngineSpec, name: &str, options: &EngineOptions) -> Box<dyn Engine> {
    match spec.protocol {
        Protocol::Uci | Protocol::Auto => {
            let mut engine = UciEngine::new(name, spec.command.clone())
                .with_format(spec.format.clone())
                .with_perft_command(spec.perft.clone())
                .with_position_command(spec.position.clone())
                .with_fen_fields(spec.fen)
                .with_stop(options.stop)
                .with_handshake_timeout(options.handshake);
            if spec.chess960 == Some(false) {
                engine = engine.without_chess960();
            }
            if let Some(threads) = options.threads {
                engine.set_option("Threads", &threads.to_string());
            }
            Box::new(engine)
        }
        Protocol::Console => {
            let perft = spec.perft.clone().unwrap_or_else(|| CONSOLE_PERFT.to_string());
            Box::new(
                ConsoleEngine::new(name, spec.command.clone(), perft, spec.console_position())
                    .with_format(spec.format.clone())
                    .with_fen_fields(spec.fen)
                    .with_chess960(spec.chess960 != Some(false))
                    .with_stop(options.stop)
                    .with_handshake_timeout(options.handshake),
            )
        }
        Protocol::Command => Box::new(
            CommandEngine::new(name, spec.command.clone(), spec.format.clone())
                .with_fen_fields(spec.fen)
                .with_chess960(spec.chess960 != Some(false))
                .with_stop(options.stop),
        ),
    }
}
