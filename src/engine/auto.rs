//! Engines given as a program alone (`--engine NAME=PROGRAM`): probed at
//! their first count, then run as what was found; and [`EngineSpec::build`],
//! which builds an engine for any spec.

use std::time::Duration;

use super::build::concrete_engine;
use super::probe::{probe, ProbeOptions};
use super::spec::{EngineSpec, Protocol};
use super::{Engine, EngineError, EngineOptions, EnginePosition, EngineRun};

impl EngineSpec {
    /// An engine for this spec, set up as `options` say. An `auto` spec
    /// gives an engine that probes the program at its first count.
    pub fn build(&self, name: &str, options: &EngineOptions) -> Box<dyn Engine> {
        match self.protocol {
            Protocol::Auto => Box::new(AutoEngine::new(name, self.clone(), *options)),
            _ => concrete_engine(self, name, options),
        }
    }
}

/// An engine given as a program alone: probed at its first count, then
/// run as what was found. For programs probed by hand, see [`probe`].
pub struct AutoEngine {
    name: String,
    spec: EngineSpec,
    options: EngineOptions,
    engine: Option<Box<dyn Engine>>,
    failure: Option<EngineError>,
}

impl AutoEngine {
    /// An engine for `spec` (an `auto` spec), built as `options` say.
    pub fn new(name: &str, spec: EngineSpec, options: EngineOptions) -> Self {
        AutoEngine { name: name.to_string(), spec, options, engine: None, failure: None }
    }
}

impl Engine for AutoEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn perft(
        &mut self,
        position: &EnginePosition,
        depth: u32,
        timeout: Duration,
    ) -> Result<EngineRun, EngineError> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        if self.engine.is_none() {
            let options = ProbeOptions { stop: self.options.stop, ..ProbeOptions::default() };
            let probe = probe(&self.spec, &options);
            match probe.found {
                Some(found) => self.engine = Some(concrete_engine(&found, &self.name, &self.options)),
                None => {
                    let tried: Vec<String> =
                        probe.tries.iter().map(|t| format!("{}: {}", t.what, t.outcome)).collect();
                    let failure = EngineError::NoPerft {
                        command: "any perft command probed".into(),
                        what: format!("tried {}", tried.join("; ")),
                        output: probe.output,
                    };
                    self.failure = Some(failure.clone());
                    return Err(failure);
                }
            }
        }
        self.engine.as_mut().expect("built above").perft(position, depth, timeout)
    }

    fn give_positions_as_fens(&mut self) -> bool {
        self.engine.as_mut().is_some_and(|engine| engine.give_positions_as_fens())
    }
}
