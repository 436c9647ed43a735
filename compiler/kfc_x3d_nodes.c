/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_nodes.c - X3D's node types and their fields, as X_ITE 15.0.1
 * defines them (kfc_x3d_nodes.h). Written by tests/x3d/gen_x3d_nodes.py, not
 * by hand; tests/test_x3d_xite.py checks that X_ITE still defines them so.
 * The table is taken from X_ITE (MIT licence):
 * Copyright (c) 2009 Holger Seelig and other contributors
 */
#include "kfc_x3d_nodes.h"

/* clang-format off */
const kfc_x3d_node_type kfc_x3d_node_types[] = {
    {"AcousticProperties",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;diffuse SFFloat 7;"
     "specular SFFloat 7;refraction SFFloat 7;absorption SFFloat 7;"},
    {"Analyser",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;fftSize SFInt32 7;"
     "minDecibels SFFloat 7;maxDecibels SFFloat 7;smoothingTimeConstant SFFloat 7;"
     "frequencyBinCount SFInt32 4;byteFrequencyData MFInt32 4;byteTimeDomainData MFInt32 4;"
     "floatFrequencyData MFFloat 4;floatTimeDomainData MFFloat 4;gain SFFloat 7;"
     "tailTime SFTime 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;startTime SFTime 7;resumeTime SFTime 7;"
     "pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;"
     "elapsedTime SFTime 4;children MFNode 7;"},
    {"Anchor",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "parameter MFString 7;autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;"
     "removeChildren MFNode 2;children MFNode 7;"},
    {"AnisotropyMaterialExtension",
     "metadata SFNode 7;anisotropyStrength SFFloat 7;anisotropyRotation SFFloat 7;"
     "anisotropyTextureMapping SFString 7;anisotropyTexture SFNode 7;"},
    {"Appearance",
     "metadata SFNode 7;alphaMode SFString 7;alphaCutoff SFFloat 7;acousticProperties SFNode 7;"
     "pointProperties SFNode 7;lineProperties SFNode 7;fillProperties SFNode 7;"
     "material SFNode 7;backMaterial SFNode 7;texture SFNode 7;textureTransform SFNode 7;"
     "shaders MFNode 7;blendMode SFNode 7;depthMode SFNode 7;"},
    {"Arc2D",
     "metadata SFNode 7;startAngle SFFloat 1;endAngle SFFloat 1;radius SFFloat 1;"},
    {"ArcClose2D",
     "metadata SFNode 7;closureType SFString 1;startAngle SFFloat 1;endAngle SFFloat 1;"
     "radius SFFloat 1;solid SFBool 1;"},
    {"AudioClip",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;gain SFFloat 7;pitch SFFloat 7;"
     "loop SFBool 7;startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;"
     "isPaused SFBool 4;isActive SFBool 4;elapsedTime SFTime 4;duration_changed SFTime 4;"},
    {"AudioDestination",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "mediaDeviceID SFString 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;isActive SFBool 4;maxChannelCount SFInt32 4;"
     "children MFNode 7;"},
    {"Background",
     "metadata SFNode 7;set_bind SFBool 2;frontUrl MFString 7;backUrl MFString 7;"
     "leftUrl MFString 7;rightUrl MFString 7;topUrl MFString 7;bottomUrl MFString 7;"
     "skyAngle MFFloat 7;skyColor MFColor 7;groundAngle MFFloat 7;groundColor MFColor 7;"
     "transparency SFFloat 7;isBound SFBool 4;bindTime SFTime 4;"},
    {"BallJoint",
     "metadata SFNode 7;forceOutput MFString 7;anchorPoint SFVec3f 7;body1AnchorPoint SFVec3f 4;"
     "body2AnchorPoint SFVec3f 4;body1 SFNode 7;body2 SFNode 7;"},
    {"Billboard",
     "metadata SFNode 7;axisOfRotation SFVec3f 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"BiquadFilter",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "tailTime SFTime 7;detune SFFloat 7;type SFString 7;frequency SFFloat 7;"
     "qualityFactor SFFloat 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;startTime SFTime 7;resumeTime SFTime 7;"
     "pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;"
     "elapsedTime SFTime 4;children MFNode 7;"},
    {"BlendMode",
     "metadata SFNode 7;blendColor SFColorRGBA 7;sourceColorFactor SFString 7;"
     "sourceAlphaFactor SFString 7;destinationColorFactor SFString 7;"
     "destinationAlphaFactor SFString 7;colorEquation SFString 7;alphaEquation SFString 7;"},
    {"BlendedVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;weightConstant1 SFFloat 7;weightConstant2 SFFloat 7;"
     "weightFunction1 SFString 7;weightFunction2 SFString 7;weightTransferFunction1 SFNode 7;"
     "weightTransferFunction2 SFNode 7;renderStyle SFNode 7;voxels SFNode 7;"},
    {"BooleanFilter",
     "metadata SFNode 7;set_boolean SFBool 2;inputTrue SFBool 4;inputFalse SFBool 4;"
     "inputNegate SFBool 4;"},
    {"BooleanSequencer",
     "metadata SFNode 7;set_fraction SFFloat 2;previous SFBool 2;next SFBool 2;key MFFloat 7;"
     "keyValue MFBool 7;value_changed SFBool 4;"},
    {"BooleanToggle",
     "metadata SFNode 7;set_boolean SFBool 2;toggle SFBool 7;"},
    {"BooleanTrigger",
     "metadata SFNode 7;set_triggerTime SFTime 2;triggerTrue SFBool 4;"},
    {"BoundaryEnhancementVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;retainedOpacity SFFloat 7;boundaryOpacity SFFloat 7;"
     "opacityFactor SFFloat 7;"},
    {"BoundedPhysicsModel",
     "metadata SFNode 7;enabled SFBool 7;damping SFFloat 7;geometry SFNode 7;"},
    {"Box",
     "metadata SFNode 7;size SFVec3f 1;solid SFBool 1;"},
    {"BufferAudioSource",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;numberOfChannels SFInt32 7;"
     "sampleRate SFFloat 7;bufferLength SFInt32 7;buffer MFFloat 7;bufferDuration SFTime 4;"
     "gain SFFloat 7;detune SFFloat 7;playbackRate SFFloat 7;loopStart SFTime 7;"
     "loopEnd SFTime 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;loop SFBool 7;startTime SFTime 7;resumeTime SFTime 7;"
     "pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;"
     "elapsedTime SFTime 4;"},
    {"CADAssembly",
     "metadata SFNode 7;name SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"CADFace",
     "metadata SFNode 7;name SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;shape SFNode 7;"},
    {"CADLayer",
     "metadata SFNode 7;name SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"CADPart",
     "metadata SFNode 7;name SFString 7;translation SFVec3f 7;rotation SFRotation 7;"
     "scale SFVec3f 7;scaleOrientation SFRotation 7;center SFVec3f 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;"
     "removeChildren MFNode 2;children MFNode 7;"},
    {"CartoonVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;colorSteps SFInt32 7;orthogonalColor SFColorRGBA 7;"
     "parallelColor SFColorRGBA 7;surfaceNormals SFNode 7;"},
    {"ChannelMerger",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "channelCount SFInt32 7;channelCountMode SFString 7;channelInterpretation SFString 7;"
     "children MFNode 7;"},
    {"ChannelSelector",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "channelSelection SFInt32 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;children MFNode 7;"},
    {"ChannelSplitter",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "channelCount SFInt32 7;channelCountMode SFString 7;channelInterpretation SFString 7;"
     "children MFNode 7;outputs MFNode 7;"},
    {"Circle2D",
     "metadata SFNode 7;radius SFFloat 1;"},
    {"ClearcoatMaterialExtension",
     "metadata SFNode 7;clearcoat SFFloat 7;clearcoatTextureMapping SFString 7;"
     "clearcoatTexture SFNode 7;clearcoatRoughness SFFloat 7;"
     "clearcoatRoughnessTextureMapping SFString 7;clearcoatRoughnessTexture SFNode 7;"
     "clearcoatNormalTextureMapping SFString 7;clearcoatNormalTexture SFNode 7;"},
    {"ClipPlane",
     "metadata SFNode 7;enabled SFBool 7;plane SFVec4f 7;"},
    {"CollidableOffset",
     "metadata SFNode 7;enabled SFBool 7;translation SFVec3f 7;rotation SFRotation 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "collidable SFNode 1;"},
    {"CollidableShape",
     "metadata SFNode 7;enabled SFBool 7;translation SFVec3f 7;rotation SFRotation 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "shape SFNode 1;"},
    {"Collision",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;isActive SFBool 4;"
     "collideTime SFTime 4;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;proxy SFNode 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"CollisionCollection",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;appliedParameters MFString 7;"
     "bounce SFFloat 7;minBounceSpeed SFFloat 7;frictionCoefficients SFVec2f 7;"
     "surfaceSpeed SFVec2f 7;slipFactors SFVec2f 7;softnessConstantForceMix SFFloat 7;"
     "softnessErrorCorrection SFFloat 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;collidables MFNode 7;"},
    {"CollisionSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;isActive SFBool 4;"
     "intersections MFNode 4;contacts MFNode 4;collider SFNode 7;"},
    {"CollisionSpace",
     "metadata SFNode 7;enabled SFBool 7;useGeometry SFBool 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;collidables MFNode 7;"},
    {"Color",
     "metadata SFNode 7;color MFColor 7;"},
    {"ColorChaser",
     "metadata SFNode 7;set_value SFColor 2;set_destination SFColor 2;initialValue SFColor 1;"
     "initialDestination SFColor 1;duration SFTime 1;isActive SFBool 4;value_changed SFColor 4;"},
    {"ColorDamper",
     "metadata SFNode 7;set_value SFColor 2;set_destination SFColor 2;initialValue SFColor 1;"
     "initialDestination SFColor 1;order SFInt32 1;tau SFTime 7;tolerance SFFloat 7;"
     "isActive SFBool 4;value_changed SFColor 4;"},
    {"ColorInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFColor 7;"
     "value_changed SFColor 4;"},
    {"ColorRGBA",
     "metadata SFNode 7;color MFColorRGBA 7;"},
    {"ComposedCubeMapTexture",
     "metadata SFNode 7;description SFString 7;frontTexture SFNode 7;backTexture SFNode 7;"
     "leftTexture SFNode 7;rightTexture SFNode 7;topTexture SFNode 7;bottomTexture SFNode 7;"
     "textureProperties SFNode 1;"},
    {"ComposedShader",
     "metadata SFNode 7;activate SFBool 2;isSelected SFBool 4;isValid SFBool 4;"
     "language SFString 1;parts MFNode 7;"},
    {"ComposedTexture3D",
     "metadata SFNode 7;description SFString 7;repeatS SFBool 1;repeatT SFBool 1;"
     "repeatR SFBool 1;textureProperties SFNode 1;texture MFNode 7;"},
    {"ComposedVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;renderStyle MFNode 7;"},
    {"Cone",
     "metadata SFNode 7;side SFBool 7;bottom SFBool 7;height SFFloat 1;bottomRadius SFFloat 1;"
     "solid SFBool 1;"},
    {"ConeEmitter",
     "metadata SFNode 7;on SFBool 7;position SFVec3f 7;direction SFVec3f 7;angle SFFloat 7;"
     "speed SFFloat 7;variation SFFloat 7;mass SFFloat 7;surfaceArea SFFloat 7;"},
    {"Contact",
     "metadata SFNode 7;position SFVec3f 7;contactNormal SFVec3f 7;depth SFFloat 7;"
     "appliedParameters MFString 7;bounce SFFloat 7;minBounceSpeed SFFloat 7;"
     "frictionDirection SFVec3f 7;frictionCoefficients SFVec2f 7;surfaceSpeed SFVec2f 7;"
     "slipCoefficients SFVec2f 7;softnessConstantForceMix SFFloat 7;"
     "softnessErrorCorrection SFFloat 7;geometry1 SFNode 7;geometry2 SFNode 7;body1 SFNode 7;"
     "body2 SFNode 7;"},
    {"Contour2D",
     "metadata SFNode 7;addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"ContourPolyline2D",
     "metadata SFNode 7;controlPoint MFVec2d 7;"},
    {"Convolver",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;numberOfChannels SFInt32 7;"
     "buffer MFFloat 7;gain SFFloat 7;tailTime SFTime 7;normalize SFBool 7;"
     "channelCount SFInt32 7;channelCountMode SFString 7;channelInterpretation SFString 7;"
     "startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;"
     "isPaused SFBool 4;isActive SFBool 4;elapsedTime SFTime 4;children MFNode 7;"},
    {"Coordinate",
     "metadata SFNode 7;point MFVec3f 7;"},
    {"CoordinateChaser",
     "metadata SFNode 7;set_value MFVec3f 2;set_destination MFVec3f 2;initialValue MFVec3f 1;"
     "initialDestination MFVec3f 1;duration SFTime 1;isActive SFBool 4;value_changed MFVec3f 4;"},
    {"CoordinateDamper",
     "metadata SFNode 7;set_value MFVec3f 2;set_destination MFVec3f 2;initialValue MFVec3f 1;"
     "initialDestination MFVec3f 1;order SFInt32 1;tau SFTime 7;tolerance SFFloat 7;"
     "isActive SFBool 4;value_changed MFVec3f 4;"},
    {"CoordinateDouble",
     "metadata SFNode 7;point MFVec3d 7;"},
    {"CoordinateInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFVec3f 7;"
     "value_changed MFVec3f 4;"},
    {"CoordinateInterpolator2D",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFVec2f 7;"
     "value_changed MFVec2f 4;"},
    {"Cylinder",
     "metadata SFNode 7;top SFBool 7;side SFBool 7;bottom SFBool 7;height SFFloat 1;"
     "radius SFFloat 1;solid SFBool 1;"},
    {"CylinderSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;axisRotation SFRotation 7;"
     "diskAngle SFFloat 7;minAngle SFFloat 7;maxAngle SFFloat 7;offset SFFloat 7;"
     "autoOffset SFBool 7;trackPoint_changed SFVec3f 4;rotation_changed SFRotation 4;"
     "isOver SFBool 4;isActive SFBool 4;"},
    {"DISEntityManager",
     "metadata SFNode 7;address SFString 7;applicationID SFInt32 7;children MFNode 7;"
     "port SFInt32 7;siteID SFInt32 7;addedEntities MFNode 4;removedEntities MFNode 4;"},
    {"DISEntityTypeMapping",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;category SFInt32 1;country SFInt32 1;"
     "domain SFInt32 1;extra SFInt32 1;kind SFInt32 1;specific SFInt32 1;subcategory SFInt32 1;"},
    {"Delay",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "tailTime SFTime 7;maxDelayTime SFTime 7;delayTime SFTime 7;channelCount SFInt32 7;"
     "channelCountMode SFString 7;channelInterpretation SFString 7;startTime SFTime 7;"
     "resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;"
     "isActive SFBool 4;elapsedTime SFTime 4;children MFNode 7;"},
    {"DepthMode",
     "metadata SFNode 7;polygonOffset SFVec2f 7;depthRange SFVec2f 7;depthTest SFBool 7;"
     "depthFunction SFString 7;depthMask SFBool 7;"},
    {"DiffuseTransmissionMaterialExtension",
     "metadata SFNode 7;diffuseTransmission SFFloat 7;"
     "diffuseTransmissionTextureMapping SFString 7;diffuseTransmissionTexture SFNode 7;"
     "diffuseTransmissionColor SFColor 7;diffuseTransmissionColorTextureMapping SFString 7;"
     "diffuseTransmissionColorTexture SFNode 7;"},
    {"DirectionalLight",
     "metadata SFNode 7;global SFBool 7;on SFBool 7;color SFColor 7;intensity SFFloat 7;"
     "ambientIntensity SFFloat 7;direction SFVec3f 7;shadows SFBool 7;shadowColor SFColor 7;"
     "shadowIntensity SFFloat 7;shadowBias SFFloat 7;shadowMapSize SFInt32 1;"},
    {"Disk2D",
     "metadata SFNode 7;innerRadius SFFloat 1;outerRadius SFFloat 1;solid SFBool 1;"},
    {"DispersionMaterialExtension",
     "metadata SFNode 7;dispersion SFFloat 7;"},
    {"DoubleAxisHingeJoint",
     "metadata SFNode 7;forceOutput MFString 7;anchorPoint SFVec3f 7;axis1 SFVec3f 7;"
     "axis2 SFVec3f 7;minAngle1 SFFloat 7;maxAngle1 SFFloat 7;desiredAngularVelocity1 SFFloat 7;"
     "desiredAngularVelocity2 SFFloat 7;maxTorque1 SFFloat 7;maxTorque2 SFFloat 7;"
     "stop1Bounce SFFloat 7;stop1ConstantForceMix SFFloat 7;stop1ErrorCorrection SFFloat 7;"
     "suspensionForce SFFloat 7;suspensionErrorCorrection SFFloat 7;body1AnchorPoint SFVec3f 4;"
     "body2AnchorPoint SFVec3f 4;body1Axis SFVec3f 4;body2Axis SFVec3f 4;hinge1Angle SFFloat 4;"
     "hinge2Angle SFFloat 4;hinge1AngleRate SFFloat 4;hinge2AngleRate SFFloat 4;body1 SFNode 7;"
     "body2 SFNode 7;"},
    {"DynamicsCompressor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "tailTime SFTime 7;attack SFTime 7;knee SFFloat 7;ratio SFFloat 7;release SFTime 7;"
     "threshold SFFloat 7;reduction SFFloat 4;channelCount SFInt32 7;"
     "channelCountMode SFString 7;channelInterpretation SFString 7;startTime SFTime 7;"
     "resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;"
     "isActive SFBool 4;elapsedTime SFTime 4;children MFNode 7;"},
    {"EaseInEaseOut",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;easeInEaseOut MFVec2f 7;"
     "modifiedFraction_changed SFFloat 4;"},
    {"EdgeEnhancementVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;edgeColor SFColorRGBA 7;gradientThreshold SFFloat 7;"
     "surfaceNormals SFNode 7;"},
    {"ElevationGrid",
     "metadata SFNode 7;set_height MFFloat 2;xDimension SFInt32 1;zDimension SFInt32 1;"
     "xSpacing SFFloat 1;zSpacing SFFloat 1;solid SFBool 1;ccw SFBool 1;creaseAngle SFFloat 1;"
     "colorPerVertex SFBool 1;normalPerVertex SFBool 1;attrib MFNode 7;fogCoord SFNode 7;"
     "color SFNode 7;texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;height MFFloat 1;"},
    {"EmissiveStrengthMaterialExtension",
     "metadata SFNode 7;emissiveStrength SFFloat 7;"},
    {"EnvironmentLight",
     "metadata SFNode 7;global SFBool 7;on SFBool 7;color SFColor 7;intensity SFFloat 7;"
     "ambientIntensity SFFloat 7;origin SFVec3f 7;rotation SFRotation 7;"
     "diffuseCoefficients MFFloat 7;diffuseTexture SFNode 7;specularTexture SFNode 7;"
     "shadows SFBool 7;shadowColor SFColor 7;shadowIntensity SFFloat 7;shadowBias SFFloat 7;"
     "shadowMapSize SFInt32 1;"},
    {"EspduTransform",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;"
     "removeChildren MFNode 2;children MFNode 7;isActive SFBool 4;"
     "set_articulationParameterValue0 SFFloat 2;set_articulationParameterValue1 SFFloat 2;"
     "set_articulationParameterValue2 SFFloat 2;set_articulationParameterValue3 SFFloat 2;"
     "set_articulationParameterValue4 SFFloat 2;set_articulationParameterValue5 SFFloat 2;"
     "set_articulationParameterValue6 SFFloat 2;set_articulationParameterValue7 SFFloat 2;"
     "address SFString 7;applicationID SFInt32 7;articulationParameterCount SFInt32 7;"
     "articulationParameterDesignatorArray MFInt32 7;"
     "articulationParameterChangeIndicatorArray MFInt32 7;"
     "articulationParameterIdPartAttachedToArray MFInt32 7;"
     "articulationParameterTypeArray MFInt32 7;articulationParameterArray MFFloat 7;"
     "center SFVec3f 7;collisionType SFInt32 7;deadReckoning SFInt32 7;"
     "detonationLocation SFVec3f 7;detonationRelativeLocation SFVec3f 7;"
     "detonationResult SFInt32 7;entityCategory SFInt32 7;entityCountry SFInt32 7;"
     "entityDomain SFInt32 7;entityExtra SFInt32 7;entityID SFInt32 7;entityKind SFInt32 7;"
     "entitySpecific SFInt32 7;entitySubcategory SFInt32 7;eventApplicationID SFInt32 7;"
     "eventEntityID SFInt32 7;eventNumber SFInt32 7;eventSiteID SFInt32 7;fired1 SFBool 7;"
     "fired2 SFBool 7;fireMissionIndex SFInt32 7;firingRange SFFloat 7;firingRate SFInt32 7;"
     "forceID SFInt32 7;fuse SFInt32 7;linearVelocity SFVec3f 7;linearAcceleration SFVec3f 7;"
     "marking SFString 7;multicastRelayHost SFString 7;multicastRelayPort SFInt32 7;"
     "munitionApplicationID SFInt32 7;munitionEndPoint SFVec3f 7;munitionEntityID SFInt32 7;"
     "munitionQuantity SFInt32 7;munitionSiteID SFInt32 7;munitionStartPoint SFVec3f 7;"
     "networkMode SFString 7;port SFInt32 7;readInterval SFTime 7;rotation SFRotation 7;"
     "scale SFVec3f 7;scaleOrientation SFRotation 7;siteID SFInt32 7;translation SFVec3f 7;"
     "warhead SFInt32 7;writeInterval SFTime 7;articulationParameterValue0_changed SFFloat 4;"
     "articulationParameterValue1_changed SFFloat 4;"
     "articulationParameterValue2_changed SFFloat 4;"
     "articulationParameterValue3_changed SFFloat 4;"
     "articulationParameterValue4_changed SFFloat 4;"
     "articulationParameterValue5_changed SFFloat 4;"
     "articulationParameterValue6_changed SFFloat 4;"
     "articulationParameterValue7_changed SFFloat 4;collideTime SFTime 4;detonateTime SFTime 4;"
     "firedTime SFTime 4;isCollided SFBool 4;isDetonated SFBool 4;isNetworkReader SFBool 4;"
     "isNetworkWriter SFBool 4;isRtpHeaderHeard SFBool 4;isStandAlone SFBool 4;"
     "timestamp SFTime 4;rtpHeaderExpected SFBool 7;geoCoords SFVec3d 7;geoSystem MFString 1;"},
    {"ExplosionEmitter",
     "metadata SFNode 7;on SFBool 7;position SFVec3f 7;speed SFFloat 7;variation SFFloat 7;"
     "mass SFFloat 7;surfaceArea SFFloat 7;"},
    {"Extrusion",
     "metadata SFNode 7;set_crossSection MFVec2f 2;set_orientation MFRotation 2;"
     "set_scale MFVec2f 2;set_spine MFVec3f 2;beginCap SFBool 1;endCap SFBool 1;solid SFBool 1;"
     "ccw SFBool 1;convex SFBool 1;creaseAngle SFFloat 1;crossSection MFVec2f 1;"
     "orientation MFRotation 1;scale MFVec2f 1;spine MFVec3f 1;"},
    {"FillProperties",
     "metadata SFNode 7;filled SFBool 7;hatched SFBool 7;hatchStyle SFInt32 7;"
     "hatchColor SFColor 7;"},
    {"FloatVertexAttribute",
     "metadata SFNode 7;name SFString 1;numComponents SFInt32 1;value MFFloat 7;"},
    {"Fog",
     "metadata SFNode 7;set_bind SFBool 2;fogType SFString 7;color SFColor 7;"
     "visibilityStart SFFloat 7;visibilityRange SFFloat 7;isBound SFBool 4;bindTime SFTime 4;"},
    {"FogCoordinate",
     "metadata SFNode 7;depth MFFloat 7;"},
    {"FontLibrary",
     "metadata SFNode 7;description SFString 7;family SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;"},
    {"FontStyle",
     "metadata SFNode 7;language SFString 7;family MFString 7;style SFString 7;size SFFloat 7;"
     "spacing SFFloat 7;horizontal SFBool 7;leftToRight SFBool 7;topToBottom SFBool 7;"
     "justify MFString 7;"},
    {"ForcePhysicsModel",
     "metadata SFNode 7;enabled SFBool 7;force SFVec3f 7;"},
    {"Gain",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "tailTime SFTime 7;channelCount SFInt32 7;channelCountMode SFString 7;"
     "channelInterpretation SFString 7;startTime SFTime 7;resumeTime SFTime 7;"
     "pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;"
     "elapsedTime SFTime 4;children MFNode 7;"},
    {"GeneratedCubeMapTexture",
     "metadata SFNode 7;description SFString 7;update SFString 7;size SFInt32 1;"
     "textureProperties SFNode 1;"},
    {"GeoCoordinate",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;point MFVec3d 7;"},
    {"GeoElevationGrid",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;set_height MFDouble 2;"
     "geoGridOrigin SFVec3d 1;xDimension SFInt32 1;zDimension SFInt32 1;xSpacing SFDouble 1;"
     "zSpacing SFDouble 1;yScale SFFloat 7;solid SFBool 1;ccw SFBool 1;creaseAngle SFDouble 1;"
     "colorPerVertex SFBool 1;normalPerVertex SFBool 1;color SFNode 7;texCoord SFNode 7;"
     "tangent SFNode 7;normal SFNode 7;height MFDouble 1;"},
    {"GeoLOD",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;rootUrl MFString 1;"
     "child1Url MFString 1;child2Url MFString 1;child3Url MFString 1;child4Url MFString 1;"
     "center SFVec3d 1;range SFFloat 1;level_changed SFInt32 4;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;rootNode MFNode 1;"
     "children MFNode 4;"},
    {"GeoLocation",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;geoCoords SFVec3d 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"GeoMetadata",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;summary MFString 7;data MFNode 7;"},
    {"GeoOrigin",
     "metadata SFNode 7;geoSystem MFString 1;geoCoords SFVec3d 7;rotateYUp SFBool 1;"},
    {"GeoPositionInterpolator",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;set_fraction SFFloat 2;"
     "key MFFloat 7;keyValue MFVec3d 7;value_changed SFVec3f 4;geovalue_changed SFVec3d 4;"},
    {"GeoProximitySensor",
     "metadata SFNode 7;description SFString 7;geoOrigin SFNode 1;geoSystem MFString 1;"
     "enabled SFBool 7;size SFVec3f 7;center SFVec3d 7;geoCenter SFVec3d 7;isActive SFBool 4;"
     "enterTime SFTime 4;exitTime SFTime 4;geoCoord_changed SFVec3d 4;"
     "position_changed SFVec3f 4;orientation_changed SFRotation 4;"
     "centerOfRotation_changed SFVec3f 4;"},
    {"GeoTouchSensor",
     "metadata SFNode 7;description SFString 7;geoOrigin SFNode 1;geoSystem MFString 1;"
     "enabled SFBool 7;hitTexCoord_changed SFVec2f 4;hitNormal_changed SFVec3f 4;"
     "hitPoint_changed SFVec3f 4;hitGeoCoord_changed SFVec3d 4;isOver SFBool 4;"
     "isActive SFBool 4;touchTime SFTime 4;"},
    {"GeoTransform",
     "metadata SFNode 7;translation SFVec3f 7;rotation SFRotation 7;scale SFVec3f 7;"
     "scaleOrientation SFRotation 7;geoOrigin SFNode 1;geoSystem MFString 1;geoCenter SFVec3d 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"GeoViewpoint",
     "metadata SFNode 7;geoOrigin SFNode 1;geoSystem MFString 1;set_bind SFBool 2;"
     "description SFString 7;position SFVec3d 7;orientation SFRotation 7;"
     "centerOfRotation SFVec3d 7;fieldOfView SFFloat 7;nearDistance SFFloat 7;"
     "farDistance SFFloat 7;viewAll SFBool 7;jump SFBool 7;retainUserOffsets SFBool 7;"
     "speedFactor SFFloat 1;isBound SFBool 4;bindTime SFTime 4;navigationInfo SFNode 7;"},
    {"Group",
     "metadata SFNode 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"HAnimDisplacer",
     "metadata SFNode 7;description SFString 7;name SFString 7;weight SFFloat 7;"
     "coordIndex MFInt32 7;displacements MFVec3f 7;"},
    {"HAnimHumanoid",
     "metadata SFNode 7;description SFString 7;name SFString 7;info MFString 7;"
     "version SFString 7;skeletalConfiguration SFString 7;loa SFInt32 7;translation SFVec3f 7;"
     "rotation SFRotation 7;scale SFVec3f 7;scaleOrientation SFRotation 7;center SFVec3f 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "skeleton MFNode 7;jointBindingPositions MFVec3f 7;jointBindingRotations MFRotation 7;"
     "jointBindingScales MFVec3f 7;joints MFNode 7;segments MFNode 7;sites MFNode 7;"
     "viewpoints MFNode 7;children MFNode 7;motionsEnabled MFBool 7;motions MFNode 7;"
     "skinBindingNormals SFNode 7;skinBindingCoords SFNode 7;skinNormal SFNode 7;"
     "skinCoord SFNode 7;skin MFNode 7;"},
    {"HAnimJoint",
     "metadata SFNode 7;description SFString 7;name SFString 7;translation SFVec3f 7;"
     "rotation SFRotation 7;scale SFVec3f 7;scaleOrientation SFRotation 7;center SFVec3f 7;"
     "limitOrientation SFRotation 7;llimit MFFloat 7;ulimit MFFloat 7;minAngle SFFloat 7;"
     "maxAngle SFFloat 7;stiffness MFFloat 7;skinCoordIndex MFInt32 7;skinCoordWeight MFFloat 7;"
     "displacers MFNode 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"HAnimMotion",
     "metadata SFNode 7;description SFString 7;name SFString 7;loa SFInt32 7;enabled SFBool 7;"
     "joints SFString 7;channelsEnabled MFBool 7;channels SFString 7;values MFFloat 7;"
     "loop SFBool 7;next SFBool 2;previous SFBool 2;frameIndex SFInt32 7;frameDuration SFTime 7;"
     "frameIncrement SFInt32 7;startFrame SFInt32 7;endFrame SFInt32 7;cycleTime SFTime 4;"
     "elapsedTime SFTime 4;frameCount SFInt32 4;"},
    {"HAnimPose",
     "metadata SFNode 7;description SFString 7;name SFString 7;loa SFInt32 7;enabled SFBool 7;"
     "transitionDuration SFFloat 7;resetAllJoints SFBool 2;commencePose SFBool 2;"
     "set_startTime SFTime 2;set_fraction SFFloat 2;isActive SFBool 4;children MFNode 7;"},
    {"HAnimSegment",
     "metadata SFNode 7;description SFString 7;name SFString 7;mass SFFloat 7;"
     "centerOfMass SFVec3f 7;momentsOfInertia MFFloat 7;displacers MFNode 7;coord SFNode 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"HAnimSite",
     "metadata SFNode 7;description SFString 7;name SFString 7;translation SFVec3f 7;"
     "rotation SFRotation 7;scale SFVec3f 7;scaleOrientation SFRotation 7;center SFVec3f 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"IORMaterialExtension",
     "metadata SFNode 7;indexOfRefraction SFFloat 7;"},
    {"ImageCubeMapTexture",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;textureProperties SFNode 1;"},
    {"ImageTexture",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;colorSpaceConversion SFBool 1;"
     "repeatS SFBool 1;repeatT SFBool 1;textureProperties SFNode 1;"},
    {"ImageTexture3D",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;repeatS SFBool 1;repeatT SFBool 1;"
     "repeatR SFBool 1;textureProperties SFNode 1;"},
    {"ImageTextureAtlas",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;slicesOverX SFInt32 7;"
     "slicesOverY SFInt32 7;numberOfSlices SFInt32 7;repeatS SFBool 1;repeatT SFBool 1;"
     "repeatR SFBool 1;textureProperties SFNode 1;"},
    {"IndexedFaceSet",
     "metadata SFNode 7;set_colorIndex MFInt32 2;set_texCoordIndex MFInt32 2;"
     "set_normalIndex MFInt32 2;set_coordIndex MFInt32 2;solid SFBool 1;ccw SFBool 1;"
     "convex SFBool 1;creaseAngle SFFloat 1;colorPerVertex SFBool 1;normalPerVertex SFBool 1;"
     "colorIndex MFInt32 1;texCoordIndex MFInt32 1;normalIndex MFInt32 1;coordIndex MFInt32 1;"
     "attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;texCoord SFNode 7;tangent SFNode 7;"
     "normal SFNode 7;coord SFNode 7;"},
    {"IndexedLineSet",
     "metadata SFNode 7;set_colorIndex MFInt32 2;set_coordIndex MFInt32 2;"
     "colorPerVertex SFBool 1;colorIndex MFInt32 1;coordIndex MFInt32 1;attrib MFNode 7;"
     "fogCoord SFNode 7;color SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"IndexedQuadSet",
     "metadata SFNode 7;set_index MFInt32 2;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;index MFInt32 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"IndexedTriangleFanSet",
     "metadata SFNode 7;set_index MFInt32 2;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;index MFInt32 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"IndexedTriangleSet",
     "metadata SFNode 7;set_index MFInt32 2;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;index MFInt32 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"IndexedTriangleStripSet",
     "metadata SFNode 7;set_index MFInt32 2;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;index MFInt32 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"Inline",
     "metadata SFNode 7;description SFString 7;global SFBool 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"},
    {"InlineGeometry",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;solid SFBool 7;smooth SFBool 7;"},
    {"InstancedShape",
     "metadata SFNode 7;translations MFVec3f 7;rotations MFRotation 7;scales MFVec3f 7;"
     "scaleOrientations MFRotation 7;centers MFVec3f 7;pointerEvents SFBool 7;"
     "castShadow SFBool 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;appearance SFNode 7;geometry SFNode 7;"},
    {"IntegerSequencer",
     "metadata SFNode 7;set_fraction SFFloat 2;previous SFBool 2;next SFBool 2;key MFFloat 7;"
     "keyValue MFInt32 7;value_changed SFInt32 4;"},
    {"IntegerTrigger",
     "metadata SFNode 7;set_boolean SFBool 2;integerKey SFInt32 7;triggerValue SFInt32 4;"},
    {"IridescenceMaterialExtension",
     "metadata SFNode 7;iridescence SFFloat 7;iridescenceTextureMapping SFString 7;"
     "iridescenceTexture SFNode 7;iridescenceIndexOfRefraction SFFloat 7;"
     "iridescenceThicknessMinimum SFFloat 7;iridescenceThicknessMaximum SFFloat 7;"
     "iridescenceThicknessTextureMapping SFString 7;iridescenceThicknessTexture SFNode 7;"},
    {"IsoSurfaceVolumeData",
     "metadata SFNode 7;dimensions SFVec3f 7;contourStepSize SFFloat 7;surfaceValues MFFloat 7;"
     "surfaceTolerance SFFloat 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;renderStyle MFNode 7;gradients SFNode 7;voxels SFNode 7;"},
    {"KeySensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;controlKey SFBool 4;"
     "shiftKey SFBool 4;altKey SFBool 4;actionKeyPress SFInt32 4;actionKeyRelease SFInt32 4;"
     "keyPress SFString 4;keyRelease SFString 4;isActive SFBool 4;"},
    {"LOD",
     "metadata SFNode 7;forceTransitions SFBool 1;center SFVec3f 1;range MFFloat 1;"
     "level_changed SFInt32 4;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"Layer",
     "metadata SFNode 7;pickable SFBool 7;objectType MFString 7;pointerEvents SFBool 7;"
     "visible SFBool 7;viewport SFNode 7;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"LayerSet",
     "metadata SFNode 7;activeLayer SFInt32 7;order MFInt32 7;layers MFNode 7;"},
    {"Layout",
     "metadata SFNode 7;align MFString 7;offsetUnits MFString 7;offset MFFloat 7;"
     "sizeUnits MFString 7;size MFFloat 7;scaleMode MFString 7;"},
    {"LayoutGroup",
     "metadata SFNode 7;layout SFNode 7;viewport SFNode 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"LayoutLayer",
     "metadata SFNode 7;pickable SFBool 7;objectType MFString 7;pointerEvents SFBool 7;"
     "visible SFBool 7;layout SFNode 7;viewport SFNode 7;addChildren MFNode 2;"
     "removeChildren MFNode 2;children MFNode 7;"},
    {"LinePickSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;objectType MFString 7;"
     "matchCriterion SFString 7;intersectionType SFString 1;sortOrder SFString 1;"
     "pickingGeometry SFNode 7;pickTarget MFNode 7;isActive SFBool 4;"
     "pickedTextureCoordinate MFVec3f 4;pickedNormal MFVec3f 4;pickedPoint MFVec3f 4;"
     "pickedGeometry MFNode 4;"},
    {"LineProperties",
     "metadata SFNode 7;applied SFBool 7;linetype SFInt32 7;linewidthScaleFactor SFFloat 7;"},
    {"LineSet",
     "metadata SFNode 7;vertexCount MFInt32 7;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"ListenerPointSource",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;trackCurrentView SFBool 7;"
     "position SFVec3f 7;orientation SFRotation 7;interauralDistance SFFloat 7;"
     "dopplerEnabled SFBool 7;"},
    {"LoadSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;timeOut SFTime 7;"
     "isActive SFBool 4;isLoaded SFBool 4;progress SFFloat 4;loadTime SFTime 4;"
     "children MFNode 7;"},
    {"LocalFog",
     "metadata SFNode 7;enabled SFBool 7;fogType SFString 7;color SFColor 7;"
     "visibilityStart SFFloat 7;visibilityRange SFFloat 7;"},
    {"Material",
     "metadata SFNode 7;ambientIntensity SFFloat 7;ambientTextureMapping SFString 7;"
     "ambientTexture SFNode 7;diffuseColor SFColor 7;diffuseTextureMapping SFString 7;"
     "diffuseTexture SFNode 7;specularColor SFColor 7;specularTextureMapping SFString 7;"
     "specularTexture SFNode 7;emissiveColor SFColor 7;emissiveTextureMapping SFString 7;"
     "emissiveTexture SFNode 7;shininess SFFloat 7;shininessTextureMapping SFString 7;"
     "shininessTexture SFNode 7;occlusionStrength SFFloat 7;occlusionTextureMapping SFString 7;"
     "occlusionTexture SFNode 7;normalScale SFFloat 7;normalTextureMapping SFString 7;"
     "normalTexture SFNode 7;transparency SFFloat 7;"},
    {"Matrix3VertexAttribute",
     "metadata SFNode 7;name SFString 1;value MFMatrix3f 7;"},
    {"Matrix4VertexAttribute",
     "metadata SFNode 7;name SFString 1;value MFMatrix4f 7;"},
    {"MetadataBoolean",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFBool 7;"},
    {"MetadataDouble",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFDouble 7;"},
    {"MetadataFloat",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFFloat 7;"},
    {"MetadataInteger",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFInt32 7;"},
    {"MetadataSet",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFNode 7;"},
    {"MetadataString",
     "metadata SFNode 7;name SFString 7;reference SFString 7;value MFString 7;"},
    {"MicrophoneSource",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "mediaDeviceID SFString 7;startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;"
     "stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;elapsedTime SFTime 4;"},
    {"MotorJoint",
     "metadata SFNode 7;autoCalc SFBool 1;forceOutput MFString 7;axis1Angle SFFloat 7;"
     "axis2Angle SFFloat 7;axis3Angle SFFloat 7;axis1Torque SFFloat 7;axis2Torque SFFloat 7;"
     "axis3Torque SFFloat 7;enabledAxes SFInt32 7;motor1Axis SFVec3f 7;motor2Axis SFVec3f 7;"
     "motor3Axis SFVec3f 7;stop1Bounce SFFloat 7;stop2Bounce SFFloat 7;stop3Bounce SFFloat 7;"
     "stop1ErrorCorrection SFFloat 7;stop2ErrorCorrection SFFloat 7;"
     "stop3ErrorCorrection SFFloat 7;motor1Angle SFFloat 4;motor2Angle SFFloat 4;"
     "motor3Angle SFFloat 4;motor1AngleRate SFFloat 4;motor2AngleRate SFFloat 4;"
     "motor3AngleRate SFFloat 4;body1 SFNode 7;body2 SFNode 7;"},
    {"MovieTexture",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;gain SFFloat 7;pitch SFFloat 7;"
     "speed SFFloat 7;loop SFBool 7;startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;"
     "stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;elapsedTime SFTime 4;"
     "duration_changed SFTime 4;repeatS SFBool 1;repeatT SFBool 1;textureProperties SFNode 1;"},
    {"MultiTexture",
     "metadata SFNode 7;description SFString 7;color SFColor 7;alpha SFFloat 7;mode MFString 7;"
     "source MFString 7;function MFString 7;texture MFNode 7;"},
    {"MultiTextureCoordinate",
     "metadata SFNode 7;texCoord MFNode 7;"},
    {"MultiTextureTransform",
     "metadata SFNode 7;textureTransform MFNode 7;"},
    {"NavigationInfo",
     "metadata SFNode 7;set_bind SFBool 2;type MFString 7;avatarSize MFFloat 7;speed SFFloat 7;"
     "headlight SFBool 7;visibilityLimit SFFloat 7;transitionType MFString 7;"
     "transitionTime SFTime 7;transitionComplete SFBool 4;isBound SFBool 4;bindTime SFTime 4;"},
    {"Normal",
     "metadata SFNode 7;vector MFVec3f 7;"},
    {"NormalInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFVec3f 7;"
     "value_changed MFVec3f 4;"},
    {"NurbsCurve",
     "metadata SFNode 7;tessellation SFInt32 7;closed SFBool 1;order SFInt32 1;knot MFDouble 1;"
     "weight MFDouble 7;controlPoint SFNode 7;"},
    {"NurbsCurve2D",
     "metadata SFNode 7;tessellation SFInt32 7;closed SFBool 1;order SFInt32 1;knot MFDouble 1;"
     "weight MFDouble 7;controlPoint MFVec2d 7;"},
    {"NurbsOrientationInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;order SFInt32 7;knot MFDouble 7;"
     "weight MFDouble 7;controlPoint SFNode 7;value_changed SFRotation 4;"},
    {"NurbsPatchSurface",
     "metadata SFNode 7;uTessellation SFInt32 7;vTessellation SFInt32 7;solid SFBool 1;"
     "uClosed SFBool 1;vClosed SFBool 1;uOrder SFInt32 1;vOrder SFInt32 1;uDimension SFInt32 1;"
     "vDimension SFInt32 1;uKnot MFDouble 1;vKnot MFDouble 1;weight MFDouble 7;"
     "texCoord SFNode 7;controlPoint SFNode 7;"},
    {"NurbsPositionInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;order SFInt32 7;knot MFDouble 7;"
     "weight MFDouble 7;controlPoint SFNode 7;value_changed SFVec3f 4;"},
    {"NurbsSet",
     "metadata SFNode 7;tessellationScale SFFloat 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addGeometry MFNode 2;removeGeometry MFNode 2;"
     "geometry MFNode 7;"},
    {"NurbsSurfaceInterpolator",
     "metadata SFNode 7;set_fraction SFVec2f 2;uOrder SFInt32 1;vOrder SFInt32 1;"
     "uDimension SFInt32 1;vDimension SFInt32 1;uKnot MFDouble 1;vKnot MFDouble 1;"
     "weight MFDouble 7;controlPoint SFNode 7;normal_changed SFVec3f 4;"
     "position_changed SFVec3f 4;"},
    {"NurbsSweptSurface",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;crossSectionCurve SFNode 7;"
     "trajectoryCurve SFNode 7;"},
    {"NurbsSwungSurface",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;profileCurve SFNode 7;"
     "trajectoryCurve SFNode 7;"},
    {"NurbsTextureCoordinate",
     "metadata SFNode 7;uOrder SFInt32 1;vOrder SFInt32 1;uDimension SFInt32 1;"
     "vDimension SFInt32 1;uKnot MFDouble 1;vKnot MFDouble 1;weight MFDouble 7;"
     "controlPoint MFVec2f 7;"},
    {"NurbsTrimmedSurface",
     "metadata SFNode 7;uTessellation SFInt32 7;vTessellation SFInt32 7;solid SFBool 1;"
     "uClosed SFBool 1;vClosed SFBool 1;uOrder SFInt32 1;vOrder SFInt32 1;uDimension SFInt32 1;"
     "vDimension SFInt32 1;uKnot MFDouble 1;vKnot MFDouble 1;weight MFDouble 7;"
     "texCoord SFNode 7;controlPoint SFNode 7;addTrimmingContour MFNode 2;"
     "removeTrimmingContour MFNode 2;trimmingContour MFNode 7;"},
    {"OpacityMapVolumeStyle",
     "enabled SFBool 7;metadata SFNode 7;transferFunction SFNode 7;"},
    {"OrientationChaser",
     "metadata SFNode 7;set_value SFRotation 2;set_destination SFRotation 2;"
     "initialValue SFRotation 1;initialDestination SFRotation 1;duration SFTime 1;"
     "isActive SFBool 4;value_changed SFRotation 4;"},
    {"OrientationDamper",
     "metadata SFNode 7;set_value SFRotation 2;set_destination SFRotation 2;"
     "initialValue SFRotation 1;initialDestination SFRotation 1;order SFInt32 1;tau SFTime 7;"
     "tolerance SFFloat 7;isActive SFBool 4;value_changed SFRotation 4;"},
    {"OrientationInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFRotation 7;"
     "value_changed SFRotation 4;"},
    {"OrthoViewpoint",
     "metadata SFNode 7;set_bind SFBool 2;description SFString 7;position SFVec3f 7;"
     "orientation SFRotation 7;centerOfRotation SFVec3f 7;fieldOfView SFVec4f 7;"
     "nearDistance SFFloat 7;farDistance SFFloat 7;viewAll SFBool 7;jump SFBool 7;"
     "retainUserOffsets SFBool 7;isBound SFBool 4;bindTime SFTime 4;navigationInfo SFNode 7;"},
    {"OscillatorSource",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;detune SFFloat 7;"
     "frequency SFFloat 7;periodicWave SFNode 7;startTime SFTime 7;resumeTime SFTime 7;"
     "pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;"
     "elapsedTime SFTime 4;"},
    {"PackagedShader",
     "metadata SFNode 7;description SFString 7;activate SFBool 2;isSelected SFBool 4;"
     "isValid SFBool 4;language SFString 1;load SFBool 7;url MFString 7;autoRefresh SFTime 7;"
     "autoRefreshTimeLimit SFTime 7;"},
    {"ParticleSystem",
     "metadata SFNode 7;enabled SFBool 7;geometryType SFString 1;createParticles SFBool 7;"
     "maxParticles SFInt32 7;particleLifetime SFTime 7;lifetimeVariation SFFloat 7;"
     "particleSize SFVec2f 7;emitter SFNode 1;physics MFNode 1;colorKey MFFloat 1;"
     "color SFNode 1;texCoordKey MFFloat 1;texCoord SFNode 1;scaleKey MFFloat 1;scale SFNode 1;"
     "isActive SFBool 4;pointerEvents SFBool 7;castShadow SFBool 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;appearance SFNode 7;"
     "geometry SFNode 7;"},
    {"PeriodicWave",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;type SFString 7;"
     "optionsReal MFFloat 7;optionsImag MFFloat 7;"},
    {"PhysicalMaterial",
     "metadata SFNode 7;baseColor SFColor 7;baseTextureMapping SFString 7;baseTexture SFNode 7;"
     "emissiveColor SFColor 7;emissiveTextureMapping SFString 7;emissiveTexture SFNode 7;"
     "metallic SFFloat 7;roughness SFFloat 7;metallicRoughnessTextureMapping SFString 7;"
     "metallicRoughnessTexture SFNode 7;occlusionStrength SFFloat 7;"
     "occlusionTextureMapping SFString 7;occlusionTexture SFNode 7;normalScale SFFloat 7;"
     "normalTextureMapping SFString 7;normalTexture SFNode 7;transparency SFFloat 7;"
     "extensions MFNode 7;"},
    {"PickableGroup",
     "metadata SFNode 7;description SFString 7;pickable SFBool 7;objectType MFString 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"PixelTexture",
     "metadata SFNode 7;description SFString 7;image SFImage 7;repeatS SFBool 1;"
     "repeatT SFBool 1;textureProperties SFNode 1;"},
    {"PixelTexture3D",
     "metadata SFNode 7;description SFString 7;image MFInt32 7;repeatS SFBool 1;"
     "repeatT SFBool 1;repeatR SFBool 1;textureProperties SFNode 1;"},
    {"PlaneSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;axisRotation SFRotation 7;"
     "autoOffset SFBool 7;offset SFVec3f 7;minPosition SFVec2f 7;maxPosition SFVec2f 7;"
     "trackPoint_changed SFVec3f 4;translation_changed SFVec3f 4;isOver SFBool 4;"
     "isActive SFBool 4;"},
    {"PointEmitter",
     "metadata SFNode 7;on SFBool 7;position SFVec3f 7;direction SFVec3f 7;speed SFFloat 7;"
     "variation SFFloat 7;mass SFFloat 7;surfaceArea SFFloat 7;"},
    {"PointLight",
     "metadata SFNode 7;global SFBool 7;on SFBool 7;color SFColor 7;intensity SFFloat 7;"
     "ambientIntensity SFFloat 7;attenuation SFVec3f 7;location SFVec3f 7;radius SFFloat 7;"
     "shadows SFBool 7;shadowColor SFColor 7;shadowIntensity SFFloat 7;shadowBias SFFloat 7;"
     "shadowMapSize SFInt32 1;"},
    {"PointPickSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;objectType MFString 7;"
     "matchCriterion SFString 7;intersectionType SFString 1;sortOrder SFString 1;"
     "pickingGeometry SFNode 7;pickTarget MFNode 7;isActive SFBool 4;pickedPoint MFVec3f 4;"
     "pickedGeometry MFNode 4;"},
    {"PointProperties",
     "metadata SFNode 7;pointSizeScaleFactor SFFloat 7;pointSizeMinValue SFFloat 7;"
     "pointSizeMaxValue SFFloat 7;attenuation SFVec3f 7;"},
    {"PointSet",
     "metadata SFNode 7;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;tangent SFNode 7;"
     "normal SFNode 7;coord SFNode 7;"},
    {"Polyline2D",
     "metadata SFNode 7;lineSegments MFVec2f 1;"},
    {"PolylineEmitter",
     "metadata SFNode 7;set_coordIndex MFInt32 2;on SFBool 7;direction SFVec3f 7;"
     "speed SFFloat 7;variation SFFloat 7;mass SFFloat 7;surfaceArea SFFloat 7;"
     "coordIndex MFInt32 1;coord SFNode 7;"},
    {"Polypoint2D",
     "metadata SFNode 7;point MFVec2f 7;"},
    {"PositionChaser",
     "metadata SFNode 7;set_value SFVec3f 2;set_destination SFVec3f 2;initialValue SFVec3f 1;"
     "initialDestination SFVec3f 1;duration SFTime 1;isActive SFBool 4;value_changed SFVec3f 4;"},
    {"PositionChaser2D",
     "metadata SFNode 7;set_value SFVec2f 2;set_destination SFVec2f 2;initialValue SFVec2f 1;"
     "initialDestination SFVec2f 1;duration SFTime 1;isActive SFBool 4;value_changed SFVec2f 4;"},
    {"PositionDamper",
     "metadata SFNode 7;set_value SFVec3f 2;set_destination SFVec3f 2;initialValue SFVec3f 1;"
     "initialDestination SFVec3f 1;order SFInt32 1;tolerance SFFloat 7;tau SFTime 7;"
     "value_changed SFVec3f 4;isActive SFBool 4;"},
    {"PositionDamper2D",
     "metadata SFNode 7;set_value SFVec2f 2;set_destination SFVec2f 2;initialValue SFVec2f 1;"
     "initialDestination SFVec2f 1;order SFInt32 1;tau SFTime 7;tolerance SFFloat 7;"
     "isActive SFBool 4;value_changed SFVec2f 4;"},
    {"PositionInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFVec3f 7;"
     "value_changed SFVec3f 4;"},
    {"PositionInterpolator2D",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFVec2f 7;"
     "value_changed SFVec2f 4;"},
    {"PrimitivePickSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;objectType MFString 7;"
     "matchCriterion SFString 7;intersectionType SFString 1;sortOrder SFString 1;"
     "pickingGeometry SFNode 7;pickTarget MFNode 7;isActive SFBool 4;pickedGeometry MFNode 4;"},
    {"ProgramShader",
     "metadata SFNode 7;activate SFBool 2;isSelected SFBool 4;isValid SFBool 4;"
     "language SFString 1;programs MFNode 7;"},
    {"ProjectionVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;type SFString 7;intensityThreshold SFFloat 7;"},
    {"ProximitySensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;size SFVec3f 7;center SFVec3f 7;"
     "enterTime SFTime 4;exitTime SFTime 4;isActive SFBool 4;position_changed SFVec3f 4;"
     "orientation_changed SFRotation 4;centerOfRotation_changed SFVec3f 4;"},
    {"QuadSet",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"ReceiverPdu",
     "metadata SFNode 7;description SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;enabled SFBool 7;isActive SFBool 4;"
     "address SFString 7;applicationID SFInt32 7;entityID SFInt32 7;"
     "multicastRelayHost SFString 7;multicastRelayPort SFInt32 7;networkMode SFString 7;"
     "port SFInt32 7;radioID SFInt32 7;readInterval SFTime 7;receivedPower SFFloat 7;"
     "receiverState SFInt32 7;rtpHeaderExpected SFBool 7;siteID SFInt32 7;"
     "transmitterApplicationID SFInt32 7;transmitterEntityID SFInt32 7;"
     "transmitterRadioID SFInt32 7;transmitterSiteID SFInt32 7;whichGeometry SFInt32 7;"
     "writeInterval SFTime 7;isNetworkReader SFBool 4;isNetworkWriter SFBool 4;"
     "isRtpHeaderHeard SFBool 4;isStandAlone SFBool 4;timestamp SFTime 4;geoCoords SFVec3d 7;"
     "geoSystem MFString 1;"},
    {"Rectangle2D",
     "metadata SFNode 7;size SFVec2f 1;solid SFBool 1;"},
    {"RenderedTexture",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;replaceImage SFBool 7;"
     "maximumNumberFrames SFInt32 7;url MFString 7;update SFString 7;updateInterval SFTime 7;"
     "dimensions MFInt32 7;depthMap SFBool 7;repeatS SFBool 1;repeatT SFBool 1;"
     "isActive SFBool 4;textureProperties SFNode 1;children MFNode 7;"},
    {"RigidBody",
     "metadata SFNode 7;enabled SFBool 7;fixed SFBool 7;position SFVec3f 7;"
     "orientation SFRotation 7;linearVelocity SFVec3f 7;angularVelocity SFVec3f 7;"
     "useFiniteRotation SFBool 7;finiteRotationAxis SFVec3f 7;autoDamp SFBool 7;"
     "linearDampingFactor SFFloat 7;angularDampingFactor SFFloat 7;mass SFFloat 7;"
     "centerOfMass SFVec3f 7;inertia SFMatrix3f 7;massDensityModel SFNode 7;"
     "useGlobalGravity SFBool 7;forces MFVec3f 7;torques MFVec3f 7;autoDisable SFBool 7;"
     "disableTime SFTime 7;disableLinearSpeed SFFloat 7;disableAngularSpeed SFFloat 7;"
     "visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;"
     "geometry MFNode 7;"},
    {"RigidBodyCollection",
     "metadata SFNode 7;set_contacts MFNode 2;enabled SFBool 7;preferAccuracy SFBool 7;"
     "errorCorrection SFFloat 7;iterations SFInt32 7;gravity SFVec3f 7;"
     "constantForceMix SFFloat 7;maxCorrectionSpeed SFFloat 7;contactSurfaceThickness SFFloat 7;"
     "autoDisable SFBool 7;disableTime SFTime 7;disableLinearSpeed SFFloat 7;"
     "disableAngularSpeed SFFloat 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;collider SFNode 1;bodies MFNode 7;joints MFNode 7;"},
    {"ScalarChaser",
     "metadata SFNode 7;set_value SFFloat 2;set_destination SFFloat 2;initialValue SFFloat 1;"
     "initialDestination SFFloat 1;duration SFTime 1;isActive SFBool 4;value_changed SFFloat 4;"},
    {"ScalarDamper",
     "metadata SFNode 7;set_value SFFloat 2;set_destination SFFloat 2;initialValue SFFloat 1;"
     "initialDestination SFFloat 1;order SFInt32 1;tau SFTime 7;tolerance SFFloat 7;"
     "isActive SFBool 4;value_changed SFFloat 4;"},
    {"ScalarInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;key MFFloat 7;keyValue MFFloat 7;"
     "value_changed SFFloat 4;"},
    {"ScreenFontStyle",
     "metadata SFNode 7;language SFString 7;family MFString 7;style SFString 7;"
     "pointSize SFFloat 7;spacing SFFloat 7;horizontal SFBool 7;leftToRight SFBool 7;"
     "topToBottom SFBool 7;justify MFString 7;"},
    {"ScreenGroup",
     "metadata SFNode 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;children MFNode 7;"},
    {"Script",
     "metadata SFNode 7;description SFString 7;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;directOutput SFBool 1;"
     "mustEvaluate SFBool 1;"},
    {"SegmentedVolumeData",
     "metadata SFNode 7;dimensions SFVec3f 7;segmentEnabled MFBool 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;segmentIdentifiers SFNode 7;"
     "renderStyle MFNode 7;voxels SFNode 7;"},
    {"ShadedVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;lighting SFBool 7;shadows SFBool 7;"
     "phaseFunction SFString 1;material SFNode 7;surfaceNormals SFNode 7;"},
    {"ShaderPart",
     "metadata SFNode 7;description SFString 7;type SFString 1;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;"},
    {"ShaderProgram",
     "metadata SFNode 7;description SFString 7;type SFString 1;load SFBool 7;url MFString 7;"
     "autoRefresh SFTime 7;autoRefreshTimeLimit SFTime 7;"},
    {"Shape",
     "metadata SFNode 7;pointerEvents SFBool 7;castShadow SFBool 7;visible SFBool 7;"
     "bboxDisplay SFBool 7;bboxSize SFVec3f 1;bboxCenter SFVec3f 1;appearance SFNode 7;"
     "geometry SFNode 7;"},
    {"SheenMaterialExtension",
     "metadata SFNode 7;sheenColor SFColor 7;sheenColorTextureMapping SFString 7;"
     "sheenColorTexture SFNode 7;sheenRoughness SFFloat 7;"
     "sheenRoughnessTextureMapping SFString 7;sheenRoughnessTexture SFNode 7;"},
    {"SignalPdu",
     "metadata SFNode 7;description SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;enabled SFBool 7;isActive SFBool 4;"
     "address SFString 7;applicationID SFInt32 7;data MFInt32 7;dataLength SFInt32 7;"
     "encodingScheme SFInt32 7;entityID SFInt32 7;multicastRelayHost SFString 7;"
     "multicastRelayPort SFInt32 7;networkMode SFString 7;port SFInt32 7;radioID SFInt32 7;"
     "readInterval SFTime 7;rtpHeaderExpected SFBool 7;sampleRate SFInt32 7;samples SFInt32 7;"
     "siteID SFInt32 7;tdlType SFInt32 7;whichGeometry SFInt32 7;writeInterval SFTime 7;"
     "isNetworkReader SFBool 4;isNetworkWriter SFBool 4;isRtpHeaderHeard SFBool 4;"
     "isStandAlone SFBool 4;timestamp SFTime 4;geoCoords SFVec3d 7;geoSystem MFString 1;"},
    {"SilhouetteEnhancementVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;silhouetteRetainedOpacity SFFloat 7;"
     "silhouetteBoundaryOpacity SFFloat 7;silhouetteSharpness SFFloat 7;surfaceNormals SFNode 7;"},
    {"SingleAxisHingeJoint",
     "metadata SFNode 7;forceOutput MFString 7;anchorPoint SFVec3f 7;axis SFVec3f 7;"
     "minAngle SFFloat 7;maxAngle SFFloat 7;stopBounce SFFloat 7;stopErrorCorrection SFFloat 7;"
     "body1AnchorPoint SFVec3f 4;body2AnchorPoint SFVec3f 4;angle SFFloat 4;angleRate SFFloat 4;"
     "body1 SFNode 7;body2 SFNode 7;"},
    {"SliderJoint",
     "metadata SFNode 7;forceOutput MFString 7;axis SFVec3f 7;minSeparation SFFloat 7;"
     "maxSeparation SFFloat 7;sliderForce SFFloat 7;stopBounce SFFloat 7;"
     "stopErrorCorrection SFFloat 7;separation SFFloat 4;separationRate SFFloat 4;"
     "body1 SFNode 7;body2 SFNode 7;"},
    {"Sound",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;spatialize SFBool 1;"
     "intensity SFFloat 7;location SFVec3f 7;direction SFVec3f 7;minBack SFFloat 7;"
     "minFront SFFloat 7;maxBack SFFloat 7;maxFront SFFloat 7;priority SFFloat 7;"
     "source SFNode 7;children MFNode 7;"},
    {"SpatialSound",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;spatialize SFBool 1;"
     "intensity SFFloat 7;location SFVec3f 7;direction SFVec3f 7;gain SFFloat 7;"
     "coneOuterGain SFFloat 7;coneInnerAngle SFFloat 7;coneOuterAngle SFFloat 7;"
     "distanceModel SFString 7;maxDistance SFFloat 7;referenceDistance SFFloat 7;"
     "rolloffFactor SFFloat 7;enableHRTF SFBool 7;dopplerEnabled SFBool 7;priority SFFloat 7;"
     "children MFNode 7;"},
    {"SpecularGlossinessMaterial",
     "metadata SFNode 7;diffuseColor SFColor 7;diffuseTextureMapping SFString 7;"
     "diffuseTexture SFNode 7;specularColor SFColor 7;glossiness SFFloat 7;"
     "specularGlossinessTextureMapping SFString 7;specularGlossinessTexture SFNode 7;"
     "emissiveColor SFColor 7;emissiveTextureMapping SFString 7;emissiveTexture SFNode 7;"
     "occlusionStrength SFFloat 7;occlusionTextureMapping SFString 7;occlusionTexture SFNode 7;"
     "normalScale SFFloat 7;normalTextureMapping SFString 7;normalTexture SFNode 7;"
     "transparency SFFloat 7;"},
    {"SpecularMaterialExtension",
     "metadata SFNode 7;specular SFFloat 7;specularTextureMapping SFString 7;"
     "specularTexture SFNode 7;specularColor SFColor 7;specularStrength SFFloat 7;"
     "specularColorTextureMapping SFString 7;specularColorTexture SFNode 7;"},
    {"Sphere",
     "metadata SFNode 7;radius SFFloat 1;solid SFBool 1;"},
    {"SphereSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;autoOffset SFBool 7;"
     "offset SFRotation 7;trackPoint_changed SFVec3f 4;rotation_changed SFRotation 4;"
     "isOver SFBool 4;isActive SFBool 4;"},
    {"SplinePositionInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;closed SFBool 7;key MFFloat 7;keyValue MFVec3f 7;"
     "keyVelocity MFVec3f 7;normalizeVelocity SFBool 7;value_changed SFVec3f 4;"},
    {"SplinePositionInterpolator2D",
     "metadata SFNode 7;set_fraction SFFloat 2;closed SFBool 7;key MFFloat 7;keyValue MFVec2f 7;"
     "keyVelocity MFVec2f 7;normalizeVelocity SFBool 7;value_changed SFVec2f 4;"},
    {"SplineScalarInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;closed SFBool 7;key MFFloat 7;keyValue MFFloat 7;"
     "keyVelocity MFFloat 7;normalizeVelocity SFBool 7;value_changed SFFloat 4;"},
    {"SpotLight",
     "metadata SFNode 7;global SFBool 7;on SFBool 7;color SFColor 7;intensity SFFloat 7;"
     "ambientIntensity SFFloat 7;attenuation SFVec3f 7;location SFVec3f 7;direction SFVec3f 7;"
     "radius SFFloat 7;beamWidth SFFloat 7;cutOffAngle SFFloat 7;shadows SFBool 7;"
     "shadowColor SFColor 7;shadowIntensity SFFloat 7;shadowBias SFFloat 7;"
     "shadowMapSize SFInt32 1;"},
    {"SquadOrientationInterpolator",
     "metadata SFNode 7;set_fraction SFFloat 2;closed SFBool 7;key MFFloat 7;"
     "keyValue MFRotation 7;normalizeVelocity SFBool 7;value_changed SFRotation 4;"},
    {"StaticGroup",
     "metadata SFNode 7;visible SFBool 7;bboxDisplay SFBool 7;bboxSize SFVec3f 1;"
     "bboxCenter SFVec3f 1;children MFNode 1;"},
    {"StreamAudioDestination",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "mediaDeviceID SFString 7;streamIdentifier MFString 7;channelCount SFInt32 7;"
     "channelCountMode SFString 7;channelInterpretation SFString 7;isActive SFBool 4;"
     "children MFNode 7;"},
    {"StreamAudioSource",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "streamIdentifier MFString 7;startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;"
     "stopTime SFTime 7;isPaused SFBool 4;isActive SFBool 4;elapsedTime SFTime 4;"},
    {"StringSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;deletionAllowed SFBool 7;"
     "enteredText SFString 4;finalText SFString 4;isActive SFBool 4;"},
    {"SurfaceEmitter",
     "metadata SFNode 7;on SFBool 7;speed SFFloat 7;variation SFFloat 7;mass SFFloat 7;"
     "surfaceArea SFFloat 7;surface SFNode 1;"},
    {"Switch",
     "metadata SFNode 7;whichChoice SFInt32 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"Tangent",
     "metadata SFNode 7;vector MFVec4f 7;"},
    {"TexCoordChaser2D",
     "metadata SFNode 7;set_value MFVec2f 2;set_destination MFVec2f 2;initialValue MFVec2f 1;"
     "initialDestination MFVec2f 1;duration SFTime 1;isActive SFBool 4;value_changed MFVec2f 4;"},
    {"TexCoordDamper2D",
     "metadata SFNode 7;set_value MFVec2f 2;set_destination MFVec2f 2;initialValue MFVec2f 1;"
     "initialDestination MFVec2f 1;order SFInt32 1;tau SFTime 7;tolerance SFFloat 7;"
     "isActive SFBool 4;value_changed MFVec2f 4;"},
    {"Text",
     "metadata SFNode 7;string MFString 7;length MFFloat 7;maxExtent SFFloat 7;solid SFBool 1;"
     "origin SFVec3f 4;textBounds SFVec2f 4;lineBounds MFVec2f 4;fontStyle SFNode 7;"},
    {"TextureBackground",
     "metadata SFNode 7;set_bind SFBool 2;skyAngle MFFloat 7;skyColor MFColor 7;"
     "groundAngle MFFloat 7;groundColor MFColor 7;transparency SFFloat 7;isBound SFBool 4;"
     "bindTime SFTime 4;frontTexture SFNode 7;backTexture SFNode 7;leftTexture SFNode 7;"
     "rightTexture SFNode 7;topTexture SFNode 7;bottomTexture SFNode 7;"},
    {"TextureCoordinate",
     "metadata SFNode 7;mapping SFString 7;point MFVec2f 7;"},
    {"TextureCoordinate3D",
     "metadata SFNode 7;mapping SFString 7;point MFVec3f 7;"},
    {"TextureCoordinate4D",
     "metadata SFNode 7;mapping SFString 7;point MFVec4f 7;"},
    {"TextureCoordinateGenerator",
     "metadata SFNode 7;mapping SFString 7;mode SFString 7;parameter MFFloat 7;"},
    {"TextureProjector",
     "metadata SFNode 7;description SFString 7;global SFBool 7;on SFBool 7;color SFColor 7;"
     "intensity SFFloat 7;ambientIntensity SFFloat 7;location SFVec3f 7;direction SFVec3f 7;"
     "upVector SFVec3f 7;fieldOfView SFFloat 7;nearDistance SFFloat 7;farDistance SFFloat 7;"
     "aspectRatio SFFloat 4;texture SFNode 7;shadows SFBool 7;shadowColor SFColor 7;"
     "shadowIntensity SFFloat 7;shadowBias SFFloat 7;shadowMapSize SFInt32 1;"},
    {"TextureProjectorParallel",
     "metadata SFNode 7;description SFString 7;global SFBool 7;on SFBool 7;color SFColor 7;"
     "intensity SFFloat 7;ambientIntensity SFFloat 7;location SFVec3f 7;direction SFVec3f 7;"
     "upVector SFVec3f 7;fieldOfView SFVec4f 7;nearDistance SFFloat 7;farDistance SFFloat 7;"
     "aspectRatio SFFloat 4;texture SFNode 7;shadows SFBool 7;shadowColor SFColor 7;"
     "shadowIntensity SFFloat 7;shadowBias SFFloat 7;shadowMapSize SFInt32 1;"},
    {"TextureProperties",
     "metadata SFNode 7;borderColor SFColorRGBA 7;borderWidth SFInt32 7;"
     "anisotropicDegree SFFloat 7;generateMipMaps SFBool 1;minificationFilter SFString 7;"
     "magnificationFilter SFString 7;boundaryModeS SFString 7;boundaryModeT SFString 7;"
     "boundaryModeR SFString 7;textureCompression SFString 7;texturePriority SFFloat 7;"},
    {"TextureTransform",
     "metadata SFNode 7;mapping SFString 7;translation SFVec2f 7;rotation SFFloat 7;"
     "scale SFVec2f 7;center SFVec2f 7;"},
    {"TextureTransform3D",
     "metadata SFNode 7;mapping SFString 7;translation SFVec3f 7;rotation SFRotation 7;"
     "scale SFVec3f 7;center SFVec3f 7;"},
    {"TextureTransformMatrix3D",
     "metadata SFNode 7;mapping SFString 7;matrix SFMatrix4f 7;"},
    {"TimeSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;cycleInterval SFTime 7;"
     "loop SFBool 7;startTime SFTime 7;resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;"
     "isPaused SFBool 4;isActive SFBool 4;cycleTime SFTime 4;elapsedTime SFTime 4;"
     "fraction_changed SFFloat 4;time SFTime 4;"},
    {"TimeTrigger",
     "metadata SFNode 7;set_boolean SFBool 2;triggerTime SFTime 4;"},
    {"ToneMappedVolumeStyle",
     "metadata SFNode 7;enabled SFBool 7;coolColor SFColorRGBA 7;warmColor SFColorRGBA 7;"
     "surfaceNormals SFNode 7;"},
    {"TouchSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;hitTexCoord_changed SFVec2f 4;"
     "hitNormal_changed SFVec3f 4;hitPoint_changed SFVec3f 4;isOver SFBool 4;isActive SFBool 4;"
     "touchTime SFTime 4;"},
    {"Transform",
     "metadata SFNode 7;translation SFVec3f 7;rotation SFRotation 7;scale SFVec3f 7;"
     "scaleOrientation SFRotation 7;center SFVec3f 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"TransformSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;size SFVec3f 7;center SFVec3f 7;"
     "enterTime SFTime 4;exitTime SFTime 4;isActive SFBool 4;position_changed SFVec3f 4;"
     "orientation_changed SFRotation 4;targetObject SFNode 7;"},
    {"TransmissionMaterialExtension",
     "metadata SFNode 7;transmission SFFloat 7;transmissionTextureMapping SFString 7;"
     "transmissionTexture SFNode 7;"},
    {"TransmitterPdu",
     "metadata SFNode 7;description SFString 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;enabled SFBool 7;isActive SFBool 4;"
     "address SFString 7;antennaLocation SFVec3f 7;antennaPatternLength SFInt32 7;"
     "antennaPatternType SFInt32 7;applicationID SFInt32 7;cryptoKeyID SFInt32 7;"
     "cryptoSystem SFInt32 7;entityID SFInt32 7;frequency SFInt32 7;inputSource SFInt32 7;"
     "lengthOfModulationParameters SFInt32 7;modulationTypeDetail SFInt32 7;"
     "modulationTypeMajor SFInt32 7;modulationTypeSpreadSpectrum SFInt32 7;"
     "modulationTypeSystem SFInt32 7;multicastRelayHost SFString 7;multicastRelayPort SFInt32 7;"
     "networkMode SFString 7;port SFInt32 7;power SFFloat 7;radioEntityTypeCategory SFInt32 7;"
     "radioEntityTypeCountry SFInt32 7;radioEntityTypeDomain SFInt32 7;"
     "radioEntityTypeKind SFInt32 7;radioEntityTypeNomenclature SFInt32 7;"
     "radioEntityTypeNomenclatureVersion SFInt32 7;radioID SFInt32 7;readInterval SFTime 7;"
     "relativeAntennaLocation SFVec3f 7;rtpHeaderExpected SFBool 7;siteID SFInt32 7;"
     "transmitFrequencyBandwidth SFFloat 7;transmitState SFInt32 7;whichGeometry SFInt32 7;"
     "writeInterval SFTime 7;isNetworkReader SFBool 4;isNetworkWriter SFBool 4;"
     "isRtpHeaderHeard SFBool 4;isStandAlone SFBool 4;timestamp SFTime 4;geoCoords SFVec3d 7;"
     "geoSystem MFString 1;"},
    {"TriangleFanSet",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;fanCount MFInt32 7;attrib MFNode 7;fogCoord SFNode 7;"
     "color SFNode 7;texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"TriangleSet",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;attrib MFNode 7;fogCoord SFNode 7;color SFNode 7;"
     "texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"TriangleSet2D",
     "metadata SFNode 7;vertices MFVec2f 7;solid SFBool 1;"},
    {"TriangleStripSet",
     "metadata SFNode 7;solid SFBool 1;ccw SFBool 1;colorPerVertex SFBool 1;"
     "normalPerVertex SFBool 1;stripCount MFInt32 7;attrib MFNode 7;fogCoord SFNode 7;"
     "color SFNode 7;texCoord SFNode 7;tangent SFNode 7;normal SFNode 7;coord SFNode 7;"},
    {"TwoSidedMaterial",
     "metadata SFNode 7;separateBackColor SFBool 7;ambientIntensity SFFloat 7;"
     "diffuseColor SFColor 7;specularColor SFColor 7;emissiveColor SFColor 7;"
     "shininess SFFloat 7;transparency SFFloat 7;backAmbientIntensity SFFloat 7;"
     "backDiffuseColor SFColor 7;backSpecularColor SFColor 7;backEmissiveColor SFColor 7;"
     "backShininess SFFloat 7;backTransparency SFFloat 7;"},
    {"UniversalJoint",
     "metadata SFNode 7;forceOutput MFString 7;anchorPoint SFVec3f 7;axis1 SFVec3f 7;"
     "axis2 SFVec3f 7;stop1Bounce SFFloat 7;stop2Bounce SFFloat 7;"
     "stop1ErrorCorrection SFFloat 7;stop2ErrorCorrection SFFloat 7;body1Axis SFVec3f 4;"
     "body2Axis SFVec3f 4;body1AnchorPoint SFVec3f 4;body2AnchorPoint SFVec3f 4;body1 SFNode 7;"
     "body2 SFNode 7;"},
    {"UnlitMaterial",
     "metadata SFNode 7;emissiveColor SFColor 7;emissiveTextureMapping SFString 7;"
     "emissiveTexture SFNode 7;normalScale SFFloat 7;normalTextureMapping SFString 7;"
     "normalTexture SFNode 7;transparency SFFloat 7;"},
    {"Viewpoint",
     "metadata SFNode 7;set_bind SFBool 2;description SFString 7;position SFVec3f 7;"
     "orientation SFRotation 7;centerOfRotation SFVec3f 7;fieldOfView SFFloat 7;"
     "nearDistance SFFloat 7;farDistance SFFloat 7;viewAll SFBool 7;jump SFBool 7;"
     "retainUserOffsets SFBool 7;isBound SFBool 4;bindTime SFTime 4;navigationInfo SFNode 7;"},
    {"ViewpointGroup",
     "metadata SFNode 7;description SFString 7;displayed SFBool 7;retainUserOffsets SFBool 7;"
     "size SFVec3f 7;center SFVec3f 7;children MFNode 7;"},
    {"Viewport",
     "metadata SFNode 7;clipBoundary MFFloat 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;addChildren MFNode 2;removeChildren MFNode 2;"
     "children MFNode 7;"},
    {"VisibilitySensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;size SFVec3f 7;center SFVec3f 7;"
     "enterTime SFTime 4;exitTime SFTime 4;isActive SFBool 4;"},
    {"VolumeData",
     "metadata SFNode 7;dimensions SFVec3f 7;visible SFBool 7;bboxDisplay SFBool 7;"
     "bboxSize SFVec3f 1;bboxCenter SFVec3f 1;renderStyle SFNode 7;voxels SFNode 7;"},
    {"VolumeEmitter",
     "metadata SFNode 7;set_coordIndex MFInt32 2;on SFBool 7;internal SFBool 1;"
     "direction SFVec3f 7;speed SFFloat 7;variation SFFloat 7;mass SFFloat 7;"
     "surfaceArea SFFloat 7;coordIndex MFInt32 1;coord SFNode 7;"},
    {"VolumeMaterialExtension",
     "metadata SFNode 7;thickness SFFloat 7;thicknessTextureMapping SFString 7;"
     "thicknessTexture SFNode 7;attenuationDistance SFFloat 7;attenuationColor SFColor 7;"},
    {"VolumePickSensor",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;objectType MFString 7;"
     "matchCriterion SFString 7;intersectionType SFString 1;sortOrder SFString 1;"
     "pickingGeometry SFNode 7;pickTarget MFNode 7;isActive SFBool 4;pickedGeometry MFNode 4;"},
    {"VolumeScatterMaterialExtension",
     "metadata SFNode 7;multiscatterColor SFColor 7;multiscatterColorTextureMapping SFString 7;"
     "multiscatterColorTexture SFNode 7;scatterAnisotropy SFFloat 7;"},
    {"WaveShaper",
     "metadata SFNode 7;description SFString 7;enabled SFBool 7;gain SFFloat 7;"
     "tailTime SFTime 7;curve MFFloat 7;oversample SFString 7;channelCount SFInt32 7;"
     "channelCountMode SFString 7;channelInterpretation SFString 7;startTime SFTime 7;"
     "resumeTime SFTime 7;pauseTime SFTime 7;stopTime SFTime 7;isPaused SFBool 4;"
     "isActive SFBool 4;elapsedTime SFTime 4;children MFNode 7;"},
    {"WindPhysicsModel",
     "metadata SFNode 7;enabled SFBool 7;direction SFVec3f 7;speed SFFloat 7;"
     "gustiness SFFloat 7;turbulence SFFloat 7;"},
    {"WorldInfo",
     "metadata SFNode 7;title SFString 7;info MFString 7;"},
};
/* clang-format on */

const size_t kfc_x3d_node_type_count = sizeof kfc_x3d_node_types / sizeof kfc_x3d_node_types[0];
