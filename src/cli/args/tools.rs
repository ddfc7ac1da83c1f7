//! Arguments of `man` and `completions`.

use std::path::PathBuf;

use clap::Args;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write perft.1 and one page per subcommand (perft-run.1, ...) here
    /// instead of perft.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub(super) const COMPLETIONS_HELP: &str = "\
Install, for example:
  bash:  perft completions bash > ~/.local/share/bash-completion/completions/perft
  zsh:   perft completions zsh > ~/.zfunc/_perft   (with fpath+=~/.zfunc before compinit)
  fish:  perft completions fish > ~/.config/fish/completions/perft.fish
  PowerShell: perft completions powershell >> $PROFILE";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL", value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct HelpArgs {
    /// The command whose help to print.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}
