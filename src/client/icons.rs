//! The icon art (docs/art.md): the PNGs the tables name, decoded before
//! the window opens (a missing or broken one is an error there, as in
//! `skirmish check`), each given mip levels so it stays smooth at every
//! zoom, from a 48-pixel badge to a token on a 4K screen.

use std::collections::HashMap;
use std::path::Path;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageSamplerDescriptor, ImageType};
use bevy::prelude::*;
use skirmish_rules::content::ContentDb;

use crate::icons::{Icons, LARGE, SMALL};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, upload);
}

/// The icons, by name, at the two sizes, ready to draw.
#[derive(Resource)]
pub struct IconArt {
    pub icons: Icons,
    large: HashMap<String, Handle<Image>>,
    small: HashMap<String, Handle<Image>>,
}

impl IconArt {
    /// Icon `name` for tokens, tiles and the card.
    pub fn large(&self, name: &str) -> Handle<Image> {
        self.large.get(name).cloned().unwrap_or_default()
    }

    /// Icon `name` for badges and the ability bar.
    pub fn small(&self, name: &str) -> Handle<Image> {
        self.small.get(name).cloned().unwrap_or_default()
    }
}

/// The decoded icons, waiting for the app's image store.
#[derive(Resource)]
pub struct DecodedIcons {
    icons: Icons,
    images: Vec<(String, u32, Image)>,
}

/// Read the tables and every PNG they (and the abilities) name.
pub fn decode(root: &Path, db: &ContentDb) -> Result<DecodedIcons, Vec<String>> {
    let errors = crate::icons::check(root, db);
    if !errors.is_empty() {
        return Err(errors.iter().map(ToString::to_string).collect());
    }
    let icons =
        Icons::load(root).map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut images = Vec::new();
    let mut errors = Vec::new();
    for name in icons.all_names(db) {
        for size in [LARGE, SMALL] {
            let file = icons.file(name, size);
            match std::fs::read(&file)
                .map_err(|e| e.to_string())
                .and_then(|bytes| icon_image(&bytes).map_err(|e| e.to_string()))
            {
                Ok(img) => images.push((name.to_string(), size, img)),
                Err(e) => errors.push(format!("{}: {e}", file.display())),
            }
        }
    }
    if errors.is_empty() {
        Ok(DecodedIcons { icons, images })
    } else {
        Err(errors)
    }
}

/// A white icon from PNG bytes: the colour made white everywhere (the
/// alpha is the shape, so tints and filtering never darken its edges),
/// with every mip level down to one pixel.
pub fn icon_image(bytes: &[u8]) -> Result<Image, String> {
    let img = Image::from_buffer(
        bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .map_err(|e| e.to_string())?;
    let img = img
        .convert(bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb)
        .ok_or("not an RGBA image")?;
    let (w, h) = (img.width(), img.height());
    if w != h {
        return Err(format!("an icon is square: this one is {w}x{h}"));
    }
    let mut alpha: Vec<u8> = img
        .data
        .as_deref()
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|p| p[3])
        .collect();
    let mut data = Vec::new();
    let mut size = w;
    let mut levels = 0;
    loop {
        data.extend(alpha.iter().flat_map(|&a| [255, 255, 255, a]));
        levels += 1;
        if size == 1 {
            break;
        }
        // Each level the average of the one above, two by two.
        let half = (size / 2).max(1);
        let mut next = vec![0u8; (half * half) as usize];
        for y in 0..half {
            for x in 0..half {
                let mut sum = 0u32;
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let sx = (2 * x + dx).min(size - 1);
                    let sy = (2 * y + dy).min(size - 1);
                    sum += alpha[(sy * size + sx) as usize] as u32;
                }
                next[(y * half + x) as usize] = (sum / 4) as u8;
            }
        }
        alpha = next;
        size = half;
    }
    let mut out = Image::new(
        bevy::render::render_resource::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
        bevy::render::render_resource::TextureDimension::D2,
        data[..(w * h * 4) as usize].to_vec(),
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    out.data = Some(data);
    out.texture_descriptor.mip_level_count = levels;
    out.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor::linear());
    Ok(out)
}

fn upload(
    mut commands: Commands,
    decoded: Option<Res<DecodedIcons>>,
    mut store: ResMut<Assets<Image>>,
) {
    let Some(decoded) = decoded else {
        return;
    };
    let mut large = HashMap::new();
    let mut small = HashMap::new();
    for (name, size, img) in &decoded.images {
        let h = store.add(img.clone());
        if *size == LARGE {
            large.insert(name.clone(), h);
        } else {
            small.insert(name.clone(), h);
        }
    }
    commands.insert_resource(IconArt {
        icons: decoded.icons.clone(),
        large,
        small,
    });
    commands.remove_resource::<DecodedIcons>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_icon_is_white_with_its_shape_in_alpha_and_every_mip_level() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let bytes = std::fs::read(root.join("ui/icons/128/wolf-head.png")).unwrap();
        let img = icon_image(&bytes).unwrap();
        // 128, 64, ... 1: eight levels.
        assert_eq!(img.texture_descriptor.mip_level_count, 8);
        let data = img.data.as_ref().unwrap();
        let total: usize = (0..8).map(|l| (128usize >> l).pow(2) * 4).sum();
        assert_eq!(data.len(), total);
        assert!(data.chunks(4).all(|p| p[..3] == [255, 255, 255]));
        // The shape is there, and the smallest level is its average cover.
        let opaque = data[..128 * 128 * 4]
            .chunks(4)
            .filter(|p| p[3] > 200)
            .count();
        assert!(opaque > 1000, "{opaque}");
        let last = data[data.len() - 1];
        assert!(last > 10 && last < 245, "{last}");
        assert!(icon_image(b"not a png").is_err());
    }

    #[test]
    fn every_named_icon_decodes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let db = ContentDb::load(&root).unwrap();
        let d = decode(&root, &db).map_err(|e| e.join("\n")).unwrap();
        assert_eq!(d.images.len(), d.icons.all_names(&db).len() * 2);
    }
}
